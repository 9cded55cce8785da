import { RefreshCw } from 'lucide-react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from '@/components/ui/button';
import { FloatingCard } from './floating-card';

/**
 * Registers the service worker and, when a new deploy's worker is waiting, offers to reload
 * into it: nobody stays on a stale app without knowing, and no one loses a half-filled form
 * to a reload they did not ask for.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;

  return (
    <FloatingCard
      label="Update available"
      icon={<RefreshCw />}
      title="A new version is available"
      description="Reload to use the latest Likeness."
      onClose={() => setNeedRefresh(false)}
      closeLabel="Dismiss update"
      actions={
        <Button variant="brand" size="sm" onClick={() => void updateServiceWorker(true)}>
          <RefreshCw aria-hidden="true" />
          Reload
        </Button>
      }
    />
  );
}
