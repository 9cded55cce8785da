import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { activateWaitingWorker, registerServiceWorker } from '../service-worker-registration';
import { FloatingCard } from './floating-card';

/**
 * Registers the service worker and, when a new deploy's worker is waiting, offers to reload
 * into it: nobody stays on a stale app without knowing, and no one loses a half-filled form
 * to a reload they did not ask for.
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  useEffect(() => {
    // Without a worker the app still works, only not offline: nothing to tell the user.
    registerServiceWorker(navigator.serviceWorker, setWaiting).catch(() => undefined);
  }, []);
  if (!waiting) return null;

  return (
    <FloatingCard
      label="Update available"
      icon={<RefreshCw />}
      title="A new version is available"
      description="Reload to use the latest Likeness."
      onClose={() => setWaiting(null)}
      closeLabel="Dismiss update"
      actions={
        <Button variant="brand" size="sm" onClick={() => activateWaitingWorker(navigator.serviceWorker, waiting)}>
          <RefreshCw aria-hidden="true" />
          Reload
        </Button>
      }
    />
  );
}
