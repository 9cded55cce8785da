import { Coins } from 'lucide-react';
import { cn } from '@/lib/cn';

/** The user's spendable credits, as shown on the credits and payment result screens. */
export function BalanceCard({ balance, className }: { balance: number; className?: string }) {
  return (
    <div className={cn('flex items-center gap-3 rounded-2xl border bg-card px-5 py-4 shadow-sm', className)}>
      <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
        <Coins className="size-5" aria-hidden="true" />
      </span>
      <div className="text-left">
        <p className="text-xs font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase">
          Current balance
        </p>
        <p className="text-2xl leading-tight font-semibold tabular-nums">
          {balance.toLocaleString('en-US')}{' '}
          <span className="text-base font-normal text-muted-foreground">{balance === 1 ? 'credit' : 'credits'}</span>
        </p>
      </div>
    </div>
  );
}
