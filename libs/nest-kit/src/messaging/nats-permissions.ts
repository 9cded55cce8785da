import {
  ALL_EVENTS,
  ALL_JOBS,
  ALL_RPCS,
  BUS_ACCESS,
  BUS_APPS,
  type BusAccess,
  type BusApp,
  EVENTS_STREAM,
  JOBS_STREAM,
  eventConsumerName,
  jobLaneConsumer,
  jobLaneSubject,
  jobLanesOf,
  rpcServiceOf,
} from '@likeness/contracts';
import { inboxPrefixOf, namespaced, namespacedStream } from './nats.js';

/** What a NATS user may publish and subscribe to (nats-server's `permissions` block). */
export interface NatsPermissions {
  publish: { allow: string[]; deny: string[] };
  subscribe: { allow: string[] };
  /** May answer the requests it receives (RPC replies), at most twice each (Nest's reply and its end). */
  allowResponses: boolean;
}

export interface NatsUser {
  user: string;
  /** The environment variable nats-server reads the password from (`$NATS_BILLING_PASSWORD`). */
  passwordVariable: string;
  permissions: NatsPermissions;
}

/**
 * The operator's user, for `node dist/main.js replay-dead-letters`: replaying a parked event
 * publishes it again on its own subject, which only its producing service may otherwise do.
 */
export const NATS_OPERATOR_USER = 'operator';

/** `NATS_GENERATION_WORKER_PASSWORD` for `generation-worker`. */
export const natsPasswordVariable = (user: string): string => `NATS_${user.toUpperCase().replace(/-/g, '_')}_PASSWORD`;

/** The JetStream API subjects that manage one durable consumer with a filter, and its acks. */
function durableConsumer(stream: string, durable: string, filter: string): string[] {
  return [
    `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
    // The client names the consumer and its filter in the subject (NATS 2.9+), so this user can
    // create this consumer with this filter only.
    `$JS.API.CONSUMER.CREATE.${stream}.${durable}.${filter}`,
    `$JS.API.CONSUMER.DELETE.${stream}.${durable}`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
    `$JS.ACK.${stream}.${durable}.>`,
  ];
}

const streamSetup = (stream: string) => ['INFO', 'CREATE', 'UPDATE'].map((verb) => `$JS.API.STREAM.${verb}.${stream}`);

/** Every durable consumer of the events stream, whoever owns it. */
function eventDurables(): string[] {
  return BUS_APPS.flatMap((app) => {
    const { service, consumes }: BusAccess = BUS_ACCESS[app];
    return service ? consumes.map((event) => eventConsumerName(service, event)) : [];
  });
}

/**
 * The least a process role needs on NATS, from its BusAccess: its own RPC subjects to answer, the
 * ones it calls, its own events and jobs to publish, a durable consumer per event it handles and
 * per job lane it takes, its KV buckets, and its own reply inbox (`_INBOX.<user>.>`). Subjects and
 * stream names carry `namespace` as the apps apply it (tests use one; production none).
 */
export function natsPermissionsOf(app: BusApp, namespace = ''): NatsPermissions {
  const access: BusAccess = BUS_ACCESS[app];
  const settings = { namespace };
  const subject = (name: string) => namespaced(settings, name);
  const events = namespacedStream(settings, EVENTS_STREAM);
  const jobs = namespacedStream(settings, JOBS_STREAM);
  const service = access.service;
  const publish = new Set<string>(['$JS.API.INFO']);
  const deny = new Set<string>();
  const subscribe = new Set<string>([`${inboxPrefixOf(app)}.>`]);

  for (const rpc of access.calls) publish.add(subject(rpc.subject));
  for (const notice of access.publishesNotices ?? []) publish.add(subject(notice));
  for (const notice of access.subscribesNotices ?? []) subscribe.add(subject(notice));
  if (service) {
    // The outbox relay makes sure both streams exist, then publishes the service's events and jobs.
    for (const stream of [events, jobs]) for (const api of streamSetup(stream)) publish.add(api);
    for (const event of ALL_EVENTS.filter((e) => e.service === service)) publish.add(subject(event.subject));
    for (const job of ALL_JOBS.filter((j) => j.queue === service)) {
      for (const lane of jobLanesOf(job)) publish.add(subject(`${jobLaneSubject(job, lane)}.*`));
    }
    if (access.servesRpc) {
      for (const rpc of ALL_RPCS.filter((r) => rpcServiceOf(r) === service)) subscribe.add(subject(rpc.subject));
    }
    for (const event of access.consumes) {
      for (const api of durableConsumer(events, eventConsumerName(service, event), subject(event.subject))) {
        publish.add(api);
      }
    }
    if (access.takesJobs) {
      for (const job of ALL_JOBS.filter((j) => j.queue === service)) {
        for (const lane of jobLanesOf(job)) {
          const filter = subject(`${jobLaneSubject(job, lane)}.>`);
          for (const api of durableConsumer(jobs, jobLaneConsumer(job, lane), filter)) publish.add(api);
        }
      }
    }
    // The queue-depth metrics and the sweeper read the oldest or last message of a job's subject.
    if (access.takesJobs || access.readsJobQueue) publish.add(`$JS.API.STREAM.MSG.GET.${jobs}`);
  }
  if (access.readsAllEvents) {
    // Short-lived ordered consumers with generated names, over the whole stream; never a
    // service's durable consumer.
    for (const api of streamSetup(events)) publish.add(api);
    for (const verb of ['CREATE', 'INFO', 'DELETE', 'MSG.NEXT']) publish.add(`$JS.API.CONSUMER.${verb}.${events}.*`);
    publish.add(`$JS.API.CONSUMER.CREATE.${events}.*.>`);
    for (const durable of eventDurables()) {
      for (const verb of ['CREATE', 'DELETE', 'MSG.NEXT']) deny.add(`$JS.API.CONSUMER.${verb}.${events}.${durable}`);
      deny.add(`$JS.API.CONSUMER.CREATE.${events}.${durable}.>`);
    }
  }
  for (const bucket of access.writesBuckets ?? []) {
    const name = namespacedStream(settings, bucket);
    const stream = `KV_${name}`;
    for (const api of [
      `$JS.API.STREAM.INFO.${stream}`,
      `$JS.API.STREAM.CREATE.${stream}`,
      `$JS.API.STREAM.MSG.GET.${stream}`,
      `$JS.API.DIRECT.GET.${stream}`,
      `$JS.API.DIRECT.GET.${stream}.>`,
      `$KV.${name}.>`,
    ]) {
      publish.add(api);
    }
  }
  for (const bucket of access.watchesBuckets ?? []) {
    const stream = `KV_${namespacedStream(settings, bucket)}`;
    // A watch is an ordered push consumer with flow control, delivered to this user's inbox.
    for (const api of [
      `$JS.API.STREAM.INFO.${stream}`,
      `$JS.API.CONSUMER.CREATE.${stream}`,
      `$JS.API.CONSUMER.CREATE.${stream}.>`,
      `$JS.API.CONSUMER.INFO.${stream}.*`,
      `$JS.API.CONSUMER.DELETE.${stream}.*`,
      `$JS.FC.${stream}.>`,
    ]) {
      publish.add(api);
    }
  }
  return {
    publish: { allow: [...publish], deny: [...deny] },
    subscribe: { allow: [...subscribe] },
    allowResponses: Boolean(access.servesRpc),
  };
}

/** The operator's: publish events again (replay-dead-letters), nothing else. */
function operatorPermissions(namespace: string): NatsPermissions {
  const settings = { namespace };
  return {
    publish: {
      allow: [
        '$JS.API.INFO',
        `$JS.API.STREAM.INFO.${namespacedStream(settings, EVENTS_STREAM)}`,
        namespaced(settings, 'events.>'),
      ],
      deny: [],
    },
    subscribe: { allow: [`${inboxPrefixOf(NATS_OPERATOR_USER)}.>`] },
    allowResponses: false,
  };
}

/** Every user the NATS server needs: one per process role, and the operator's. */
export function natsUsers(namespace = ''): NatsUser[] {
  return [
    ...BUS_APPS.map((app) => ({
      user: app,
      passwordVariable: natsPasswordVariable(app),
      permissions: natsPermissionsOf(app, namespace),
    })),
    {
      user: NATS_OPERATOR_USER,
      passwordVariable: natsPasswordVariable(NATS_OPERATOR_USER),
      permissions: operatorPermissions(namespace),
    },
  ];
}

const GENERATED_BY =
  'Generated by `npm run nats:config` from libs/contracts/src/system/bus-access.ts; do not edit by hand.';

const quoted = (values: string[]) => values.map((value) => JSON.stringify(value));

function renderList(name: string, values: string[], indent: string): string[] {
  if (values.length === 0) return [];
  const items = quoted(values).map((value, index) => `${indent}  ${value}${index < values.length - 1 ? ',' : ''}`);
  return [`${indent}${name}: [`, ...items, `${indent}]`];
}

/**
 * nats-server's `authorization` block (docker compose mounts it; see deploy/README.md). Each
 * password is read from the server's environment (`$NATS_BILLING_PASSWORD`), never written here.
 */
export function renderNatsServerAuthorization(namespace = ''): string {
  const lines = [
    `# ${GENERATED_BY}`,
    '# Passwords come from the server environment: one NATS_<USER>_PASSWORD per user.',
    'authorization {',
    '  users: [',
  ];
  const users = natsUsers(namespace);
  for (const [index, { user, passwordVariable, permissions }] of users.entries()) {
    lines.push(
      '    {',
      `      user: ${JSON.stringify(user)}`,
      `      password: $${passwordVariable}`,
      '      permissions: {',
      '        publish: {',
      ...renderList('allow', permissions.publish.allow, '          '),
      ...renderList('deny', permissions.publish.deny, '          '),
      '        }',
      '        subscribe: {',
      ...renderList('allow', permissions.subscribe.allow, '          '),
      '        }',
      ...(permissions.allowResponses ? ['        allow_responses: { max: 2 }'] : []),
      '      }',
      index < users.length - 1 ? '    },' : '    }',
    );
  }
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

/** The Secret (in the NATS release's namespace) that holds every user's password. */
export const NATS_USERS_SECRET = 'nats-users';

/**
 * Values for the official NATS Helm chart, given after deploy/nats/values.yaml: the same users in
 * `config.merge.authorization`, their passwords from the Secret `nats-users` through the
 * container's environment (`<< $VAR >>` is written into nats.conf unquoted, as a variable).
 */
export function renderNatsHelmValues(): string {
  const users = natsUsers('');
  const lines = [
    `# ${GENERATED_BY}`,
    '#   helm upgrade --install nats nats/nats --namespace nats -f deploy/nats/values.yaml -f deploy/nats/values-auth.yaml',
    `# Every password comes from the Secret ${NATS_USERS_SECRET} in the namespace nats (deploy/README.md).`,
    'config:',
    '  merge:',
    '    authorization:',
    '      users:',
  ];
  for (const { user, passwordVariable, permissions } of users) {
    lines.push(
      `        - user: ${user}`,
      `          password: << $${passwordVariable} >>`,
      '          permissions:',
      '            publish:',
      ...yamlList('allow', permissions.publish.allow, '              '),
      ...yamlList('deny', permissions.publish.deny, '              '),
      '            subscribe:',
      ...yamlList('allow', permissions.subscribe.allow, '              '),
      ...(permissions.allowResponses ? ['            allow_responses:', '              max: 2'] : []),
    );
  }
  lines.push('container:', '  env:');
  for (const { passwordVariable } of users) {
    lines.push(
      `    ${passwordVariable}:`,
      '      valueFrom:',
      '        secretKeyRef:',
      `          name: ${NATS_USERS_SECRET}`,
      `          key: ${passwordVariable}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function yamlList(name: string, values: string[], indent: string): string[] {
  if (values.length === 0) return [];
  return [`${indent}${name}:`, ...quoted(values).map((value) => `${indent}  - ${value}`)];
}
