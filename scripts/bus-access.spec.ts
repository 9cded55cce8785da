import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as contracts from '@likeness/contracts';
import {
  ALL_RPCS,
  BUS_ACCESS,
  type BusAccess,
  type BusApp,
  type EventDefinition,
  type RpcDefinition,
  pingRpc,
  rpcServiceOf,
  SERVICE_NAMES,
} from '@likeness/contracts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Holds libs/contracts/src/system/bus-access.ts (from which every NATS user's permissions are
 * derived) to the code: what each app calls, handles, takes and keeps, read from its sources. A
 * call, a handler, a job or a bucket added without its line in BUS_ACCESS fails here, instead of
 * being refused by NATS in production; a line left behind after the code went fails too.
 */

/** The sources of an app, without tests. The generation workers share generation's. */
function sourcesOf(dir: string): string {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.(spec|integration-spec)\.ts$/.test(entry.name))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

const namespaces = contracts as unknown as Record<string, Record<string, unknown>>;
const constants = contracts as unknown as Record<string, unknown>;

/** `Namespace.member` of the contracts, e.g. `BillingRpc.reserveCredits`. */
function member<T>(namespace: string, name: string): T {
  const found = namespaces[namespace]?.[name];
  if (!found) throw new Error(`${namespace}.${name} is not in @likeness/contracts`);
  return found as T;
}

/** What the code of the apps that share `dir` does on the bus. */
function usedBy(dir: string, service: string | undefined) {
  const code = sourcesOf(dir);
  const calls = new Set<string>();
  // A reference to another service's RPC is a call (the gateway's pings are built by pingRpc).
  for (const [, namespace, name] of code.matchAll(/\b(\w+Rpc)\.(\w+)\b/g)) {
    const rpc = member<RpcDefinition>(namespace!, name!);
    if (rpcServiceOf(rpc) !== service) calls.add(rpc.subject);
  }
  if (/\bpingRpc\(/.test(code)) for (const name of SERVICE_NAMES) calls.add(pingRpc(name).subject);
  const consumes = new Set(
    [...code.matchAll(/@EventHandler\(\s*(\w+Events)\.(\w+)/g)].map(
      ([, namespace, name]) => member<EventDefinition>(namespace!, name!).subject,
    ),
  );
  const bucketName = (argument: string) =>
    /^'[a-z_]+'$/.test(argument) ? argument.slice(1, -1) : String(constants[argument]);
  const writes = new Set(
    [...code.matchAll(/new (?:TokenBuckets|KvBucket)\(\s*[\w.]+,\s*[\w.]+,\s*('[a-z_]+'|[A-Z_]+)/g)].map(([, name]) =>
      bucketName(name!),
    ),
  );
  const watches = new Set(
    [...code.matchAll(/\.open\(namespacedStream\([\w.]+,\s*([A-Z_]+)\)\)/g)].map(([, name]) => bucketName(name!)),
  );
  return {
    calls: [...calls].sort(),
    consumes: [...consumes].sort(),
    takesJobs: /@JobHandler\(/.test(code),
    // Ordered consumers over the events stream: the gateway's live events.
    readsAllEvents: /\bOrderedConsumerOptions\b/.test(code),
    writesBuckets: [...writes].sort(),
    watchesBuckets: [...watches].sort(),
    // Plain NATS messages (notices between a service's roles): declared when the code sends or listens.
    publishesNotices: /\bnats\.publish\(/.test(code),
    subscribesNotices: /\bnats\.subscribe\(/.test(code),
  };
}

/** What BUS_ACCESS declares for the apps that share one source folder. */
function declaredFor(apps: BusApp[]) {
  const accesses: BusAccess[] = apps.map((app) => BUS_ACCESS[app]);
  const union = (pick: (access: BusAccess) => readonly string[] | undefined) =>
    [...new Set(accesses.flatMap((access) => pick(access) ?? []))].sort();
  return {
    calls: union((access) => access.calls.map((rpc) => rpc.subject)),
    consumes: union((access) => access.consumes.map((event) => event.subject)),
    takesJobs: accesses.some((access) => access.takesJobs),
    readsAllEvents: accesses.some((access) => access.readsAllEvents),
    writesBuckets: union((access) => access.writesBuckets),
    watchesBuckets: union((access) => access.watchesBuckets),
    publishesNotices: union((access) => access.publishesNotices).length > 0,
    subscribesNotices: union((access) => access.subscribesNotices).length > 0,
  };
}

const FOLDERS: [string, BusApp[], string | undefined][] = [
  ['gateway/src', ['gateway'], undefined],
  ['services/auth/src', ['auth'], 'auth'],
  ['services/billing/src', ['billing'], 'billing'],
  ['services/media/src', ['media'], 'media'],
  ['services/training/src', ['training'], 'training'],
  ['services/generation/src', ['generation', 'generation-worker'], 'generation'],
  ['services/reporting/src', ['reporting'], 'reporting'],
];

describe('BUS_ACCESS', () => {
  it('should name every app and role that connects to NATS', () => {
    expect(FOLDERS.flatMap(([, apps]) => apps).sort()).toEqual(Object.keys(BUS_ACCESS).sort());
  });

  it.each(FOLDERS)('should declare exactly what the code in %s does on the bus', (dir, apps, service) => {
    expect(declaredFor(apps)).toEqual(usedBy(dir, service));
  });

  it('should let a service call only RPCs of other services (its own it answers)', () => {
    for (const [app, access] of Object.entries(BUS_ACCESS) as [BusApp, BusAccess][]) {
      const own = access.calls.filter((rpc) => rpcServiceOf(rpc) === access.service);
      expect({ app, own: own.map((rpc) => rpc.subject) }).toEqual({ app, own: [] });
    }
  });

  it('should know every RPC it names', () => {
    const known = new Set(ALL_RPCS.map((rpc) => rpc.subject));
    for (const access of Object.values(BUS_ACCESS) as BusAccess[]) {
      for (const rpc of access.calls) expect(known).toContain(rpc.subject);
    }
  });
});
