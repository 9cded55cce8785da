import 'reflect-metadata';
// The cookie plugin's typings, which gateway.app.ts brings in for the auth code this spec loads.
import type {} from '@fastify/cookie';
import { type HttpRoute, httpRoutes } from '@likeness/contracts';
import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import Fastify, { type RouteOptions } from 'fastify';
import { AdminGuard } from './auth/admin.guard.js';
import { SessionGuard } from './auth/session.guard.js';
import { type GatewayConfig, gatewayConfigSchema } from './gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { mediaFileRoutes, registerMediaFileRoutes } from './media/media-file.routes.js';
import type { MediaHttpClient } from './media/media-http.client.js';

/** Routes outside /api that are not the product's API: probes for orchestrators. */
const OPERATIONAL_ROUTES = ['GET /healthz', 'GET /readyz'];

interface HandledRoute {
  handler: string;
  method: string;
  /** In the contract's spelling: `/api/avatars/{id}`. */
  path: string;
  status: number;
  /** Behind SessionGuard, or a guard built on it (AdminGuard): a visitor gets 401. */
  auth: boolean;
  admin: boolean;
}

const config: GatewayConfig = gatewayConfigSchema.parse({ JWT_SECRET: 'j'.repeat(32), MEDIA_SECRET: 'm'.repeat(32) });
const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const expectedStatus = (route: HttpRoute) => (route.created ? 201 : 200);

const isSubclassOf = (guard: unknown, base: Type): boolean =>
  typeof guard === 'function' && guard.prototype instanceof base;

/** Every route a gateway controller declares, read from Nest's own metadata. */
function controllerRoutes(controllers: readonly Type[]): HandledRoute[] {
  const routes: HandledRoute[] = [];
  for (const controller of controllers) {
    const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '/';
    const classGuards = (Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? [];
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const guards = [...classGuards, ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[]) ?? [])];
      routes.push({
        handler: `${controller.name}.${name}`,
        method,
        path: `/${[base, path]
          .map((part) => part.replace(/^\/|\/$/g, ''))
          .filter(Boolean)
          .join('/')}`.replace(/:([A-Za-z]+)/g, '{$1}'),
        // Nest answers 201 to a POST and 200 to the rest unless @HttpCode says otherwise.
        status:
          (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === 'POST' ? 201 : 200),
        auth: guards.some((guard) => guard === SessionGuard || isSubclassOf(guard, SessionGuard)),
        admin: guards.includes(AdminGuard),
      });
    }
  }
  return routes;
}

/** The routes registered on Fastify directly (the key of a file URL spans several segments). */
async function plainFastifyRoutes(): Promise<RouteOptions[]> {
  const fastify = Fastify();
  const registered: RouteOptions[] = [];
  fastify.addHook('onRoute', (route) => {
    registered.push(route);
  });
  registerMediaFileRoutes(fastify, {} as MediaHttpClient);
  await fastify.ready();
  await fastify.close();
  return registered;
}

describe('the gateway route table (libs/contracts routes.ts)', () => {
  const controllers = GatewayModule.forRoot(config).controllers ?? [];
  const handled = controllerRoutes(controllers as Type[]);
  const table = new Map(httpRoutes.map((route) => [key(route), route]));

  it('should list every route once', () => {
    expect(new Set(table.keys()).size).toBe(httpRoutes.length);
  });

  it('should give every path parameter of a route a schema, and no schema to a name its path lacks', () => {
    const mismatched = httpRoutes
      .map((route) => ({
        route: key(route),
        inPath: [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => name).sort(),
        withSchema: Object.keys(route.params?.shape ?? {}).sort(),
      }))
      .filter(({ inPath, withSchema }) => inPath.join() !== withSchema.join());
    expect(mismatched).toEqual([]);
  });

  it('should give every controller route under /api a route in the table, and none outside but the probes', () => {
    const missing = handled.filter((route) => route.path.startsWith('/api/') && !table.has(key(route)));
    expect(missing).toEqual([]);
    const outside = handled.filter((route) => !route.path.startsWith('/api/')).map(key);
    expect(outside.sort()).toEqual(OPERATIONAL_ROUTES);
  });

  it('should declare each controller route with the method, status and session guard of its contract', () => {
    const disagreements = handled
      .filter((route) => table.has(key(route)))
      .map((route) => {
        const contract = table.get(key(route))!;
        return {
          handler: route.handler,
          status: route.status,
          auth: route.auth,
          expected: { status: expectedStatus(contract), auth: contract.auth },
        };
      })
      .filter(({ status, auth, expected }) => status !== expected.status || auth !== expected.auth);
    expect(disagreements).toEqual([]);
  });

  it('should guard every admin route, and only those, with AdminGuard (401 to a visitor, 403 to a user)', () => {
    const adminRoutes = httpRoutes.filter((route) => route.tag === 'admin').map(key);
    expect(adminRoutes.length).toBeGreaterThan(0);
    expect(adminRoutes.every((route) => route.includes(' /api/admin/'))).toBe(true);
    expect(httpRoutes.filter((route) => route.path.startsWith('/api/admin/')).map(key)).toEqual(adminRoutes);
    expect(
      handled
        .filter((route) => route.admin)
        .map(key)
        .sort(),
    ).toEqual([...adminRoutes].sort());
    expect(httpRoutes.filter((route) => route.tag === 'admin' && !route.auth).map(key)).toEqual([]);
  });

  it('should handle every route of the table exactly once', async () => {
    const plain = await plainFastifyRoutes();
    const plainRoutes = mediaFileRoutes.map(({ route, url }) => {
      const registered = plain.filter(
        (candidate) => candidate.url === url && [candidate.method].flat().includes(route.method),
      );
      expect({ route: key(route), registered: registered.length }).toEqual({ route: key(route), registered: 1 });
      // Capability URLs: the signature or share token is the credential, never a session.
      expect({ route: key(route), auth: route.auth }).toEqual({ route: key(route), auth: false });
      return key(route);
    });
    const handlers = [...handled.map(key), ...plainRoutes];
    const unhandled = httpRoutes.map(key).filter((route) => !handlers.includes(route));
    const twice = handlers.filter((route, index) => handlers.indexOf(route) !== index);
    expect({ unhandled, twice }).toEqual({ unhandled: [], twice: [] });
  });
});
