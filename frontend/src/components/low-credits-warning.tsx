import { CircleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

/** The red line under a paid action the balance cannot cover, with the way to more credits. */
export function LowCreditsWarning({
  id,
  message,
  credits,
  className,
}: {
  id?: string;
  message: string;
  credits: number;
  className?: string;
}) {
  return (
    <p id={id} className={cn('flex items-start gap-1.5 text-sm text-destructive', className)}>
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        <span>{message}</span>{' '}
        <span className="text-muted-foreground">
          (you have {credits}).{' '}
          <Link
            to={paths.credits}
            className="rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            Buy credits
          </Link>
        </span>
      </span>
    </p>
  );
}
