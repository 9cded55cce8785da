import { useAppConfig } from '@/lib/app-config/get-app-config';
import { cn } from '@/lib/cn';

/** The deployment's support address (GET /api/config) as a mail link; "our support team" until it arrives. */
export function SupportMailLink({ className }: { className?: string }) {
  const config = useAppConfig();
  if (!config.isSuccess) return <span className={className}>our support team</span>;
  const address = config.data.supportEmail;
  return (
    <a
      href={`mailto:${address}`}
      className={cn(
        'font-medium [overflow-wrap:anywhere] text-primary underline-offset-4 hover:underline focus-visible:rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      {address}
    </a>
  );
}
