import { SetMetadata } from '@nestjs/common';

export const READINESS_CHECK_METADATA = Symbol('READINESS_CHECK_METADATA');

/** How long a readiness check may take before it counts as down (the probes wait 3 s). */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessCheckMetadata {
  /** The key of the check in /health's `checks`. */
  name: string;
  timeoutMs: number;
}

/**
 * Adds a provider method to the service's readiness (`GET /health`, beside the database and
 * NATS): the method resolves when a dependency the service cannot work without answers, and
 * throws otherwise. While it throws, or takes longer than `timeoutMs`, /health answers 503 with
 * the check `down`, so Kubernetes sends the pod no work, and restarts nothing.
 * `@ReadinessCheck('storage') check() { return this.storage.check(); }`
 */
export function ReadinessCheck(name: string, options: { timeoutMs?: number } = {}) {
  const metadata: ReadinessCheckMetadata = { name, timeoutMs: options.timeoutMs ?? READINESS_CHECK_TIMEOUT_MS };
  return <M extends () => Promise<unknown>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    SetMetadata(READINESS_CHECK_METADATA, metadata)(target, key, descriptor);
  };
}
