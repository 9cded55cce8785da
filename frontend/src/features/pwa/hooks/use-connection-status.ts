import { useEffect, useState } from 'react';

/** SPEC §4: how long "Back Online" stays after the connection returns. */
export const BACK_ONLINE_MS = 5000;

export type ConnectionStatus = 'online' | 'offline' | 'back-online';

/** The browser's connection as the offline banner shows it. */
export function useConnectionStatus(): ConnectionStatus {
  // Online unless the browser says otherwise (Node's `navigator`, prerendering the pages, has no `onLine`).
  const [status, setStatus] = useState<ConnectionStatus>(() => (navigator.onLine === false ? 'offline' : 'online'));

  useEffect(() => {
    const goOffline = () => setStatus('offline');
    const comeBack = () => setStatus('back-online');
    window.addEventListener('offline', goOffline);
    window.addEventListener('online', comeBack);
    return () => {
      window.removeEventListener('offline', goOffline);
      window.removeEventListener('online', comeBack);
    };
  }, []);

  useEffect(() => {
    if (status !== 'back-online') return;
    const timer = window.setTimeout(() => setStatus('online'), BACK_ONLINE_MS);
    return () => window.clearTimeout(timer);
  }, [status]);

  return status;
}
