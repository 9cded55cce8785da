import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';

/** Shown while the payment configuration or Stripe.js loads. */
export function PaymentSetupLoader({ className }: { className?: string }) {
  return (
    <div
      role="status"
      className={cn(
        'flex min-h-40 flex-col items-center justify-center gap-3 text-center text-sm text-muted-foreground',
        className,
      )}
    >
      <Spinner className="size-6 text-primary" />
      <span>Setting up secure payment...</span>
    </div>
  );
}
