import type { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

export interface DiscoveredMethod<M> {
  /** `Class.method`, for logs and metrics. */
  name: string;
  metadata: M;
  /** Calls the method on its provider. */
  call: (...args: unknown[]) => unknown;
}

/**
 * Every provider method of the app marked with `key` (a decorator's metadata), bound to its
 * instance; with `controllers`, the controllers' methods too.
 */
export function discoverMethods<M>(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  reflector: Reflector,
  key: symbol,
  { controllers = false }: { controllers?: boolean } = {},
): DiscoveredMethod<M>[] {
  const found: DiscoveredMethod<M>[] = [];
  const wrappers = controllers
    ? [...discovery.getControllers(), ...discovery.getProviders()]
    : discovery.getProviders();
  for (const wrapper of wrappers) {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance || typeof instance !== 'object') continue;
    for (const method of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
      const handler = instance[method];
      if (typeof handler !== 'function') continue;
      const metadata = reflector.get<M | undefined>(key, handler);
      if (metadata === undefined) continue;
      found.push({
        name: `${instance.constructor.name}.${method}`,
        metadata,
        call: (...args) => handler.apply(instance, args),
      });
    }
  }
  return found;
}
