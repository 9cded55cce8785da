import { describe, expect, it, vi } from 'vitest';
import { activateWaitingWorker, registerServiceWorker } from './service-worker-registration';

/** A worker whose state the test moves on, as the browser would. */
class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  readonly postMessage = vi.fn();

  moveTo(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  waiting: FakeWorker | null = null;
  installing: FakeWorker | null = null;

  findUpdate(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
  }
}

function browser({ controlled, waiting = null }: { controlled: boolean; waiting?: FakeWorker | null }) {
  const registration = new FakeRegistration();
  registration.waiting = waiting;
  const container = Object.assign(new EventTarget(), {
    controller: controlled ? new FakeWorker() : null,
    register: vi.fn(async () => registration),
  });
  return { registration, container: container as unknown as ServiceWorkerContainer & typeof container };
}

const asWorker = (worker: FakeWorker) => worker as unknown as ServiceWorker;

describe('registerServiceWorker', () => {
  it('should register the site-wide worker', async () => {
    const { container } = browser({ controlled: false });
    await registerServiceWorker(container, vi.fn());
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('should offer a new deploy that is already waiting when the page opens', async () => {
    const waiting = new FakeWorker();
    const { container } = browser({ controlled: true, waiting });
    const onWaiting = vi.fn();
    await registerServiceWorker(container, onWaiting);
    expect(onWaiting).toHaveBeenCalledWith(waiting);
  });

  it('should offer a new deploy found by an update check once it is installed', async () => {
    const { container, registration } = browser({ controlled: true });
    const onWaiting = vi.fn();
    await registerServiceWorker(container, onWaiting);
    const update = new FakeWorker();
    registration.findUpdate(update);
    expect(onWaiting).not.toHaveBeenCalled();
    update.moveTo('installed');
    expect(onWaiting).toHaveBeenCalledWith(update);
  });

  it('should offer nothing for the first worker a browser installs', async () => {
    const { container, registration } = browser({ controlled: false });
    const onWaiting = vi.fn();
    await registerServiceWorker(container, onWaiting);
    const first = new FakeWorker();
    registration.findUpdate(first);
    first.moveTo('installed');
    expect(onWaiting).not.toHaveBeenCalled();
  });

  it('should reject when the browser refuses the worker', async () => {
    const { container } = browser({ controlled: false });
    container.register.mockRejectedValueOnce(new Error('refused'));
    await expect(registerServiceWorker(container, vi.fn())).rejects.toThrow('refused');
  });
});

describe('activateWaitingWorker', () => {
  it('should ask the waiting worker to take over and reload once it is in charge, only then', () => {
    const { container } = browser({ controlled: true });
    const waiting = new FakeWorker();
    const reload = vi.fn();
    activateWaitingWorker(container, asWorker(waiting), reload);
    expect(waiting.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event('controllerchange'));
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
