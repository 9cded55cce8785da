import { Wifi, WifiOff } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useConnectionStatus } from '../hooks/use-connection-status';

/**
 * SPEC §4: "No Internet Connection" while the browser is offline, then "Back Online" for five
 * seconds. The live region stays mounted so each change is announced; it sits above the toasts
 * (z-100): the connection matters more than a passing message.
 */
export function OfflineBanner() {
  const status = useConnectionStatus();
  return (
    <div
      role="status" // Above the toasts (z-100): the connection matters more than a passing message.
      className="pointer-events-none fixed inset-x-0 top-3 z-[110] flex justify-center px-4 sm:top-4"
    >
      {status === 'offline' ? (
        <p className={cn(pill, 'border-amber-500/40 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100')}>
          <WifiOff aria-hidden="true" className="size-4" />
          No Internet Connection
        </p>
      ) : status === 'back-online' ? (
        <p
          className={cn(
            pill,
            'border-emerald-500/40 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
          )}
        >
          <Wifi aria-hidden="true" className="size-4" />
          Back Online
        </p>
      ) : null}
    </div>
  );
}

const pill =
  'pointer-events-auto inline-flex items-center gap-2 rounded-full border px-4 py-2 text-sm font-medium shadow-lg animate-fade-in';
