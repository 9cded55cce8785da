import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALL_EVENTS,
  ALL_JOBS,
  ALL_RPCS,
  BUS_ACCESS,
  BUS_APPS,
  type BusAccess,
  type BusApp,
  eventConsumerName,
  jobLaneConsumer,
  jobLaneSubject,
  jobLanesOf,
  rpcServiceOf,
} from '@likeness/contracts';
import {
  type NatsPermissions,
  natsPermissionsOf,
  natsUsers,
  renderNatsHelmValues,
  renderNatsServerAuthorization,
} from './nats-permissions.js';

/** NATS subject matching: `*` is one token, `>` the rest (at least one). */
function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (let i = 0; i < wanted.length; i += 1) {
    if (wanted[i] === '>') return tokens.length > i;
    if (i >= tokens.length || (wanted[i] !== '*' && wanted[i] !== tokens[i])) return false;
  }
  return wanted.length === tokens.length;
}

const any = (patterns: string[], subject: string) => patterns.some((pattern) => subjectMatches(pattern, subject));
const canPublish = (permissions: NatsPermissions, subject: string) =>
  any(permissions.publish.allow, subject) && !any(permissions.publish.deny, subject);
const canSubscribe = (permissions: NatsPermissions, subject: string) => any(permissions.subscribe.allow, subject);

const permissions = Object.fromEntries(BUS_APPS.map((app) => [app, natsPermissionsOf(app)])) as Record<
  BusApp,
  NatsPermissions
>;
const appsThat = (allowed: (permissions: NatsPermissions, app: BusApp) => boolean) =>
  BUS_APPS.filter((app) => allowed(permissions[app], app)).sort();
const access = (app: BusApp): BusAccess => BUS_ACCESS[app];

describe(natsPermissionsOf.name, () => {
  it.each(ALL_RPCS.map((rpc) => [rpc.subject, rpc] as const))(
    'should let only its service answer %s, and only its callers call it',
    (subject, rpc) => {
      const servers = BUS_APPS.filter((app) => access(app).service === rpcServiceOf(rpc) && access(app).servesRpc);
      expect(servers).toHaveLength(1);
      expect(appsThat((p) => canSubscribe(p, subject))).toEqual(servers);
      const callers = BUS_APPS.filter((app) => access(app).calls.some((call) => call.subject === subject)).sort();
      expect(appsThat((p) => canPublish(p, subject))).toEqual(callers);
    },
  );

  it.each(ALL_EVENTS.map((event) => [event.subject, event] as const))(
    'should let only its service publish %s, and only its consumers read it (the gateway reads every event)',
    (subject, event) => {
      expect(appsThat((p) => canPublish(p, subject))).toEqual(
        BUS_APPS.filter((app) => access(app).service === event.service).sort(),
      );
      for (const app of BUS_APPS) {
        const consumes = access(app).consumes.includes(event);
        const durable = eventConsumerName(access(app).service ?? app, event);
        const create = `$JS.API.CONSUMER.CREATE.EVENTS.${durable}.${subject}`;
        // The gateway may create consumers of any name over the whole stream (its live events).
        const creates = consumes || Boolean(access(app).readsAllEvents);
        expect({ app, create: canPublish(permissions[app], create) }).toEqual({ app, create: creates });
        expect({ app, ack: canPublish(permissions[app], `$JS.ACK.EVENTS.${durable}.1.2.3.4.5`) }).toEqual({
          app,
          ack: consumes,
        });
      }
      // Nobody's durable consumer can be taken over by the gateway's live-events consumers.
      for (const app of BUS_APPS.filter((a) => access(a).consumes.includes(event))) {
        const durable = eventConsumerName(access(app).service ?? app, event);
        expect(canPublish(permissions.gateway, `$JS.API.CONSUMER.DELETE.EVENTS.${durable}`)).toBe(false);
        expect(canPublish(permissions.gateway, `$JS.API.CONSUMER.MSG.NEXT.EVENTS.${durable}`)).toBe(false);
      }
    },
  );

  it.each(ALL_JOBS.map((job) => [job.subject, job] as const))(
    'should let only its service queue %s, and only its workers take it',
    (_subject, job) => {
      for (const lane of jobLanesOf(job)) {
        const message = `${jobLaneSubject(job, lane)}.some-key`;
        expect(appsThat((p) => canPublish(p, message))).toEqual(
          BUS_APPS.filter((app) => access(app).service === job.queue).sort(),
        );
        const consumer = jobLaneConsumer(job, lane);
        const create = `$JS.API.CONSUMER.CREATE.JOBS.${consumer}.${jobLaneSubject(job, lane)}.>`;
        expect(
          appsThat((p) => canPublish(p, create) && canPublish(p, `$JS.API.CONSUMER.MSG.NEXT.JOBS.${consumer}`)),
        ).toEqual(BUS_APPS.filter((app) => access(app).service === job.queue && access(app).takesJobs).sort());
      }
    },
  );

  it('should let each user read only its own replies', () => {
    for (const app of BUS_APPS) {
      expect(appsThat((p) => canSubscribe(p, `_INBOX.${app}.abc.1`))).toEqual([app]);
      expect(canSubscribe(permissions[app], '_INBOX.abc')).toBe(false);
    }
  });

  it('should refuse one service the subjects of another', () => {
    expect(canSubscribe(permissions.billing, 'auth.users.get')).toBe(false);
    expect(canPublish(permissions.billing, 'auth.users.get')).toBe(false);
    expect(canPublish(permissions.media, 'events.billing.PaymentSucceeded.v1')).toBe(false);
    expect(canPublish(permissions.reporting, 'jobs.generation.run.v1.x')).toBe(false);
    expect(canPublish(permissions.gateway, 'events.billing.PaymentSucceeded.v1')).toBe(false);
    expect(canPublish(permissions['generation-worker'], 'billing.credits.reserve')).toBe(false);
    expect(canSubscribe(permissions['generation-worker'], 'generation.jobs.create')).toBe(false);
    expect(canPublish(permissions.media, '$KV.login_limits.x')).toBe(false);
    expect(canPublish(permissions.gateway, '$KV.session_revocations.x')).toBe(false);
    expect(canPublish(permissions.gateway, '$JS.API.STREAM.DELETE.EVENTS')).toBe(false);
  });

  it('should put the namespace in front of every subject and stream, as the apps do', () => {
    const spaced = natsPermissionsOf('billing', 'suite_1');
    expect(canSubscribe(spaced, 'suite_1.billing.credits.reserve')).toBe(true);
    expect(canSubscribe(spaced, 'billing.credits.reserve')).toBe(false);
    expect(canPublish(spaced, 'suite_1.events.billing.PaymentSucceeded.v1')).toBe(true);
    expect(canPublish(spaced, '$JS.API.STREAM.CREATE.suite_1_EVENTS')).toBe(true);
    expect(canPublish(spaced, '$JS.API.STREAM.CREATE.EVENTS')).toBe(false);
  });
});

describe('the committed NATS server configuration', () => {
  const read = (file: string) => readFileSync(join(process.cwd(), 'deploy', 'nats', file), 'utf8');

  it('should be what `npm run nats:config` writes for docker compose (deploy/nats/auth.conf)', () => {
    expect(read('auth.conf')).toBe(renderNatsServerAuthorization());
  });

  it('should be what `npm run nats:config` writes for the Helm chart (deploy/nats/values-auth.yaml)', () => {
    expect(read('values-auth.yaml')).toBe(renderNatsHelmValues());
  });

  it('should read every password from the environment, never hold one', () => {
    const config = renderNatsServerAuthorization();
    for (const { passwordVariable } of natsUsers()) expect(config).toContain(`password: $${passwordVariable}\n`);
    expect(config).not.toMatch(/password: "/);
  });
});
