/** The service worker the app build writes (build-tools/pwa.ts), in charge of the whole site. */
export const SERVICE_WORKER_URL = '/sw.js';

/**
 * Registers the service worker and calls `onWaiting` with a new deploy's worker once it is
 * installed and waiting to take over from the one in charge (found at registration, or found
 * later by an update check). The first worker a browser installs is not an update: nothing is
 * offered then. Resolves once the registration is made; rejects if the browser refuses it.
 */
export async function registerServiceWorker(
  container: ServiceWorkerContainer,
  onWaiting: (worker: ServiceWorker) => void,
): Promise<ServiceWorkerRegistration> {
  const registration = await container.register(SERVICE_WORKER_URL, { scope: '/' });
  const offer = (worker: ServiceWorker) => {
    if (container.controller) onWaiting(worker);
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offer(installing);
    });
  });
  return registration;
}

/**
 * Lets the waiting worker take over (it answers `SKIP_WAITING` by skipping its wait) and reloads
 * the page once it is in charge, so the page runs the new deploy's files.
 */
export function activateWaitingWorker(
  container: ServiceWorkerContainer,
  worker: ServiceWorker,
  reload: () => void = () => window.location.reload(),
): void {
  container.addEventListener('controllerchange', () => reload(), { once: true });
  worker.postMessage({ type: 'SKIP_WAITING' });
}
