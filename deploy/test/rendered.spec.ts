// The manifests as a cluster would receive them: every kustomization rendered with kustomize
// (kubectl's built-in), every object validated against the Kubernetes and KEDA schemas
// (kubernetes-models, offline), and every container's environment, as the kubelet would build
// it from env, the ConfigMaps and the Secrets, parsed by that app's own config schema. The same
// for docker-compose.yml. A missing or contradictory setting fails here, not in a rollout.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import * as keda from '@kubernetes-models/keda';
import * as prometheusOperator from '@kubernetes-models/prometheus-operator';
import * as contracts from '@likeness/contracts';
import {
  databaseRolesConfigSchema,
  metricsRegistry,
  natsPasswordVariable,
  serviceDatabaseUrlKey,
} from '@likeness/nest-kit';
import * as kubernetes from 'kubernetes-models';
import { parse, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { gatewayConfigSchema } from '../../gateway/src/gateway.config.js';
import '../../gateway/src/http/request-metrics.js';
import '../../services/generation/src/generation-metrics.js';
import { authConfigSchema } from '../../services/auth/src/auth.config.js';
import { billingConfigSchema } from '../../services/billing/src/billing.config.js';
import { generationConfigSchema } from '../../services/generation/src/generation.config.js';
import { mediaConfigSchema } from '../../services/media/src/media.config.js';
import { reportingConfigSchema } from '../../services/reporting/src/reporting.config.js';
import { trainingConfigSchema } from '../../services/training/src/training.config.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
type Env = Record<string, string>;

const root = process.cwd();
const k8sDir = join(root, 'deploy', 'k8s');
const postgresDir = join(root, 'deploy', 'postgres');

const CONFIG_SCHEMAS: Record<string, z.ZodType> = {
  gateway: gatewayConfigSchema,
  auth: authConfigSchema,
  billing: billingConfigSchema,
  media: mediaConfigSchema,
  training: trainingConfigSchema,
  generation: generationConfigSchema,
  reporting: reportingConfigSchema,
  // The Job (and Compose container) that creates each service's role and schema.
  'database-roles': databaseRolesConfigSchema,
};

/**
 * What the production operator provides (deploy/README.md, "The Secret likeness-secrets" and
 * "Production settings"): the Secret's keys, with placeholder values of the right shape (a key
 * present in a Secret counts as set), and the account settings added to the ConfigMap.
 */
const OPERATOR_SECRET: Env = {
  ...Object.fromEntries(
    contracts.SERVICE_NAMES.map((service) => [
      serviceDatabaseUrlKey(service),
      `postgres://likeness_${service}@likeness-db-rw.postgres.svc.cluster.local:5432/likeness`,
    ]),
  ),
  JWT_SECRET: 'operator-jwt-secret-'.padEnd(48, 'x'),
  MEDIA_SECRET: 'operator-media-secret-'.padEnd(48, 'x'),
  SMTP_URL: 'smtps://relay.example.com:465',
  STRIPE_SECRET_KEY: 'operator-stripe-secret-key',
  STRIPE_WEBHOOK_SECRET: 'operator-stripe-webhook-secret',
  REPLICATE_API_TOKEN: 'operator-replicate-token',
  REPLICATE_WEBHOOK_SECRET: 'operator-replicate-webhook-secret',
  ...Object.fromEntries(contracts.BUS_APPS.map((app) => [natsPasswordVariable(app), `operator-nats-${app}-password`])),
};
/** The superuser's URL, in a Secret of its own that only the Job database-roles reads. */
const OPERATOR_DB_ADMIN: Env = {
  DATABASE_ADMIN_URL: 'postgres://postgres@likeness-db-rw.postgres.svc.cluster.local:5432/likeness',
};
/** Every Secret the production operator creates in the apps' namespace. */
const OPERATOR_SECRETS = { 'likeness-secrets': OPERATOR_SECRET, 'likeness-db-admin': OPERATOR_DB_ADMIN };
const OPERATOR_SETTINGS: Env = {
  STRIPE_PUBLISHABLE_KEY: 'operator-stripe-publishable-key',
  REPLICATE_OWNER: 'likeness',
  REPLICATE_TRAINER_VERSION: `ostris/flux-dev-lora-trainer:${'0'.repeat(64)}`,
};

// ---- rendering -----------------------------------------------------------------------------

const INSTALL_KUBECTL =
  'Install kubectl v1.27 or later (kustomize v5 built in) from the Kubernetes apt repository ' +
  '(https://pkgs.k8s.io/core:/stable:/v1.32/deb/, package kubectl) or https://kubernetes.io/docs/tasks/tools/, ' +
  "or point KUBECTL at one. Debian 12's kubernetes-client is 1.20, whose kustomize v2 cannot build these files.";

/** kubectl on PATH (or $KUBECTL) with kustomize v5; otherwise the suite fails saying how to get it. */
function kubectl(): string {
  const candidates = process.env['KUBECTL']
    ? [process.env['KUBECTL']]
    : (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'kubectl'));
  const found = candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found)
    throw new Error(`kubectl was not found on PATH: these tests render the manifests with it. ${INSTALL_KUBECTL}`);
  const version = JSON.parse(execFileSync(found, ['version', '--client', '-o', 'json'], { encoding: 'utf8' })) as {
    kustomizeVersion?: string;
  };
  const major = Number(/^v?([0-9]+)\./.exec(version.kustomizeVersion ?? '')?.[1] ?? 0);
  if (major < 5) throw new Error(`${found} has kustomize ${version.kustomizeVersion ?? '(none)'}. ${INSTALL_KUBECTL}`);
  return found;
}

const kubectlPath = kubectl();

function render(dir: string): Obj[] {
  const output = execFileSync(kubectlPath, ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(output).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${dir}: ${doc.errors[0]?.message}`);
    return doc.toJS() as Obj;
  });
}

// ---- schemas -------------------------------------------------------------------------------

interface ModelClass {
  new (data: Obj): { validate(): void };
}
const modelGroups = { ...kubernetes, ...keda, ...prometheusOperator } as unknown as Record<
  string,
  Record<string, Record<string, ModelClass>>
>;

/** `networking.k8s.io/v1` → kubernetes-models' `networkingK8sIo.v1`; the core group is `v1`. */
function modelFor(apiVersion: string, kind: string): ModelClass | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === '') return modelGroups[version as string]?.[kind] as unknown as ModelClass | undefined;
  const name = (group as string)
    .split('.')
    .map((part, index) => (index === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
  return modelGroups[name]?.[version as string]?.[kind];
}

/**
 * kustomize wraps long base64 values of a Secret's data over lines; the API server's decoder
 * skips the line breaks (Go's base64), the schema's "byte" format does not.
 */
function unwrapSecretData(object: Obj): Obj {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(
    Object.entries(object.data).map(([key, value]) => [key, String(value).replace(/\s/g, '')]),
  );
  return { ...object, data };
}

/** The schema's complaint about an object, or undefined. */
function schemaProblem(object: Obj): string | undefined {
  const Model = modelFor(object.apiVersion, object.kind);
  if (!Model) return `no schema for ${object.apiVersion} ${object.kind}`;
  try {
    new Model(unwrapSecretData(object)).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

// ---- environments --------------------------------------------------------------------------

const decode = (value: string) => Buffer.from(value, 'base64').toString('utf8');

interface Sources {
  configMaps: Map<string, Env>;
  secrets: Map<string, Env>;
}

function sourcesOf(objects: Obj[], extra: { secrets?: Record<string, Env>; settings?: Env } = {}): Sources {
  const configMaps = new Map<string, Env>(
    objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, { ...o.data, ...extra.settings }]),
  );
  const secrets = new Map<string, Env>(
    objects
      .filter((o) => o.kind === 'Secret')
      .map((o) => [
        o.metadata.name,
        {
          ...Object.fromEntries(Object.entries(o.data ?? {}).map(([key, value]) => [key, decode(value as string)])),
          ...o.stringData,
        },
      ]),
  );
  for (const [name, values] of Object.entries(extra.secrets ?? {})) if (!secrets.has(name)) secrets.set(name, values);
  return { configMaps, secrets };
}

/** The environment the kubelet gives a container, and what would stop it starting. */
function containerEnv(container: Obj, sources: Sources): { env: Env; problems: string[] } {
  const env: Env = {};
  const problems: string[] = [];
  const source = (kind: 'configMaps' | 'secrets', name: string) => sources[kind].get(name);
  for (const from of container.envFrom ?? []) {
    const [kind, ref] = from.configMapRef
      ? (['configMaps', from.configMapRef] as const)
      : (['secrets', from.secretRef] as const);
    const values = source(kind, ref.name);
    if (values) Object.assign(env, values);
    else if (!ref.optional) problems.push(`envFrom ${kind} ${ref.name} does not exist`);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      env[variable.name] = String(variable.value);
      continue;
    }
    const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef;
    if (!ref) continue; // fieldRef, resourceFieldRef: set by the kubelet
    const values = source(variable.valueFrom.secretKeyRef ? 'secrets' : 'configMaps', ref.name);
    if (values?.[ref.key] !== undefined) env[variable.name] = values[ref.key] as string;
    else if (!ref.optional) problems.push(`${variable.name}: ${ref.name} has no key ${ref.key}`);
  }
  return { env, problems };
}

/**
 * `services/<app>/dist/main.js` or `gateway/dist/main.js` in a container's command, or the kit's
 * `bin/database-roles.js`.
 */
function appOf(command: string[] = []): string | undefined {
  for (const part of command) {
    const match =
      /^(?:services\/([a-z-]+)|(gateway))\/dist\/main\.js$|^libs\/nest-kit\/dist\/bin\/(database-roles)\.js$/.exec(
        part,
      );
    if (match) return match[1] ?? match[2] ?? match[3];
  }
  return undefined;
}

function configProblems(app: string, env: Env): string[] {
  const schema = CONFIG_SCHEMAS[app];
  if (!schema) return [`no config schema for ${app}`];
  const result = schema.safeParse(env);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`);
}

interface AppContainer {
  /** `Deployment/media`, `Job/migrate-auth`. */
  workload: string;
  app: string;
  container: Obj;
}

function appContainers(objects: Obj[]): AppContainer[] {
  return objects
    .filter((o) => o.spec?.template?.spec?.containers)
    .flatMap((o) =>
      [...(o.spec.template.spec.initContainers ?? []), ...o.spec.template.spec.containers].flatMap((container: Obj) => {
        const app = appOf([...(container.command ?? []), ...(container.args ?? [])]);
        return app ? [{ workload: `${o.kind}/${o.metadata.name}`, app, container }] : [];
      }),
    );
}

/** Every problem of an overlay's app containers: missing sources, then each config schema's. */
function environmentProblems(objects: Obj[], sources: Sources): Record<string, string[]> {
  return Object.fromEntries(
    appContainers(objects).map(({ workload, app, container }) => {
      const { env, problems } = containerEnv(container, sources);
      return [`${workload} (${app})`, [...problems, ...configProblems(app, env)]];
    }),
  );
}

const noProblems = (problems: Record<string, string[]>) =>
  Object.fromEntries(Object.keys(problems).map((key) => [key, []]));

// ---- Kubernetes ----------------------------------------------------------------------------

const KUSTOMIZATIONS = {
  base: join(k8sDir, 'base'),
  dev: join(k8sDir, 'overlays', 'dev'),
  production: join(k8sDir, 'overlays', 'production'),
  postgres: postgresDir,
};
const rendered = Object.fromEntries(Object.entries(KUSTOMIZATIONS).map(([name, dir]) => [name, render(dir)])) as Record<
  keyof typeof KUSTOMIZATIONS,
  Obj[]
>;

/** CloudNativePG's resources: no published models; structural checks below. */
const CNPG_GROUP = 'postgresql.cnpg.io/v1';

describe.each(Object.keys(KUSTOMIZATIONS) as (keyof typeof KUSTOMIZATIONS)[])('kustomize build %s', (name) => {
  const objects = rendered[name];

  it('should render objects with an apiVersion, kind and name each', () => {
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) {
      expect({ apiVersion: typeof o.apiVersion, kind: typeof o.kind, name: typeof o.metadata?.name }).toEqual({
        apiVersion: 'string',
        kind: 'string',
        name: 'string',
      });
    }
  });

  it('should validate every object against its Kubernetes, KEDA or Prometheus Operator schema', () => {
    const checked = objects.filter((o) => o.apiVersion !== CNPG_GROUP);
    const problems = checked.map((o) => ({ object: `${o.kind}/${o.metadata.name}`, problem: schemaProblem(o) }));
    expect(problems).toEqual(problems.map(({ object }) => ({ object, problem: undefined })));
  });

  it('should pin every container image to a version', () => {
    const images = objects
      .flatMap((o) => [
        ...(o.spec?.template?.spec?.containers ?? []),
        ...(o.spec?.template?.spec?.initContainers ?? []),
      ])
      .map((c: Obj) => String(c.image));
    for (const image of images) {
      // The base names the app's image `likeness`; the overlays give it its tag.
      if (name === 'base' && image === 'likeness') continue;
      expect(image).toMatch(/^[^:@]+(:[^:@]+|@sha256:[0-9a-f]{64})$/);
      expect(image).not.toMatch(/:latest$/);
    }
  });
});

describe('container environments, parsed by each app’s config schema', () => {
  it('should start every app container of the dev overlay', () => {
    const problems = environmentProblems(rendered.dev, sourcesOf(rendered.dev));
    expect(Object.keys(problems).length).toBeGreaterThanOrEqual(14);
    expect(problems).toEqual(noProblems(problems));
  });

  it("should start every app container of production with the operator's Secret and account settings", () => {
    const problems = environmentProblems(
      rendered.production,
      sourcesOf(rendered.production, { secrets: OPERATOR_SECRETS, settings: OPERATOR_SETTINGS }),
    );
    expect(Object.keys(problems).length).toBeGreaterThanOrEqual(14);
    expect(problems).toEqual(noProblems(problems));
  });

  it('should stop production billing and training while the account settings are missing', () => {
    const problems = environmentProblems(
      rendered.production,
      sourcesOf(rendered.production, { secrets: OPERATOR_SECRETS }),
    );
    expect(problems['Deployment/billing (billing)']?.join('\n')).toMatch(/STRIPE_PUBLISHABLE_KEY/);
    expect(problems['Deployment/training (training)']?.join('\n')).toMatch(/REPLICATE_OWNER/);
  });

  it('should catch an administrator named by half (the review’s migrate-auth exit 1)', () => {
    const objects = structuredClone(rendered.dev);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('likeness-config-'))!;
    delete config.data.ADMIN_USERNAME;
    const problems = environmentProblems(objects, sourcesOf(objects));
    expect(problems['Job/migrate-auth (auth)']).toEqual([
      'ADMIN_USERNAME: set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together, or none of them',
    ]);
  });

  it('should catch a NATS user without its password, in every app, in words', () => {
    const objects = structuredClone(rendered.dev);
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'likeness-secrets')!;
    delete secret.data.NATS_BILLING_PASSWORD;
    const problems = environmentProblems(objects, sourcesOf(objects));
    expect(problems['Deployment/billing (billing)']).toContain(
      'NATS_PASSWORD: likeness-secrets has no key NATS_BILLING_PASSWORD',
    );
    // The Job database-roles never connects to NATS.
    for (const [app, schema] of Object.entries(CONFIG_SCHEMAS).filter(([app]) => app !== 'database-roles')) {
      const result = schema.safeParse({
        ...OPERATOR_SECRET,
        DATABASE_URL: 'postgres://likeness_app:password@likeness-db-rw:5432/likeness',
        NATS_USER: app,
      });
      expect({ app, problems: result.success ? [] : result.error.issues.map((i) => i.message) }).toEqual({
        app,
        problems: expect.arrayContaining([
          `NATS_USER is set (${app}) without NATS_PASSWORD: set the user's password, or neither`,
        ]),
      });
    }
  });

  it('should catch a required Secret key that is missing', () => {
    const objects = structuredClone(rendered.dev);
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'likeness-secrets')!;
    delete secret.data.MEDIA_SECRET;
    const problems = environmentProblems(objects, sourcesOf(objects));
    expect(problems['Deployment/media (media)']).toContain('MEDIA_SECRET: likeness-secrets has no key MEDIA_SECRET');
  });
});

describe('the dev overlay’s dependencies', () => {
  const objects = rendered.dev;
  const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('likeness-config-'))!.data;
  const services = new Set(
    objects
      .filter((o) => o.kind === 'Service')
      .map((o) => `${o.metadata.name}.${o.metadata.namespace}.svc.cluster.local`),
  );

  it('should store images in object storage that the overlay runs, in a bucket a Job creates', () => {
    expect(config.STORAGE_DRIVER).toBe('s3');
    const endpoint = new URL(config.S3_ENDPOINT);
    expect(services).toContain(endpoint.hostname);
    const minio = objects.find((o) => o.kind === 'Service' && endpoint.hostname.startsWith(`${o.metadata.name}.`))!;
    expect(minio.spec.ports.map((p: Obj) => p.port)).toContain(Number(endpoint.port));
    const bucketJob = objects.find((o) => o.kind === 'Job' && o.metadata.name === 'minio-create-bucket')!;
    const { env } = containerEnv(bucketJob.spec.template.spec.containers[0], sourcesOf(objects));
    expect(env.S3_BUCKET).toBe(config.S3_BUCKET);
    expect(bucketJob.spec.template.spec.containers[0].args.join(' ')).toContain('mb --ignore-existing');
  });

  it('should let media and the generation workers through to the object storage', () => {
    const endpoint = new URL(config.S3_ENDPOINT);
    const policy = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'allow-minio-egress')!;
    expect(policy.spec.podSelector.matchExpressions[0].values).toEqual(expect.arrayContaining(['media', 'generation']));
    expect(policy.spec.egress[0].ports).toEqual([{ protocol: 'TCP', port: Number(endpoint.port) }]);
  });

  it('should send mail to a Service the overlay runs', () => {
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'likeness-secrets')!;
    expect(services).toContain(new URL(decode(secret.data.SMTP_URL)).hostname);
  });
});

describe('media in Kubernetes', () => {
  const media = rendered.production.find((o) => o.kind === 'Deployment' && o.metadata.name === 'media')!;
  const container = media.spec.template.spec.containers[0];

  it('should leave the Service before it stops taking image streams (preStop), within the grace period', () => {
    const preStop = container.lifecycle?.preStop?.exec?.command as string[];
    expect(preStop?.[0]).toBe('sleep');
    expect(Number(preStop[1])).toBeGreaterThan(0);
    expect(Number(preStop[1])).toBeLessThan(media.spec.template.spec.terminationGracePeriodSeconds);
  });

  it('should be ready only when its storage answers (/health includes the storage check)', () => {
    expect(container.readinessProbe.httpGet.path).toBe('/health');
  });
});

// ---- PostgreSQL (CloudNativePG) and NATS (Helm values) --------------------------------------

describe('deploy/postgres (CloudNativePG)', () => {
  const objects = rendered.postgres;
  const cluster = objects.find((o) => o.apiVersion === CNPG_GROUP && o.kind === 'Cluster')!;
  const poolers = objects.filter((o) => o.apiVersion === CNPG_GROUP && o.kind === 'Pooler');

  it('should define the Cluster the apps’ DATABASE_URL names, with replicas and storage', () => {
    for (const service of contracts.SERVICE_NAMES) {
      const url = new URL(OPERATOR_SECRET[serviceDatabaseUrlKey(service)] as string);
      expect(`${cluster.metadata.name}-rw.${cluster.metadata.namespace}.svc.cluster.local`).toBe(url.hostname);
      expect(cluster.spec.bootstrap.initdb.database).toBe(url.pathname.slice(1));
      // The database's owner may do far more than a service: no app connects as it.
      expect(url.username).not.toBe(cluster.spec.bootstrap.initdb.owner);
    }
    expect(cluster.spec.instances).toBeGreaterThanOrEqual(3);
    expect(cluster.spec.storage.size).toMatch(/^[0-9]+(Gi|Ti)$/);
    expect(cluster.spec.imageName).toMatch(/^ghcr\.io\/cloudnative-pg\/postgresql:[0-9]+\.[0-9]+/);
    expect(Number(cluster.spec.postgresql.parameters.max_connections)).toBeGreaterThan(0);
  });

  it('should pool only in session mode (the outbox LISTENs, migrations take advisory locks)', () => {
    expect(poolers.length).toBeGreaterThan(0);
    for (const pooler of poolers) {
      expect(pooler.spec.cluster.name).toBe(cluster.metadata.name);
      expect(pooler.spec.pgbouncer.poolMode).toBe('session');
      expect(pooler.spec.type).toBe('rw');
    }
  });

  it('should validate the other objects (network policies, ...) against their schemas', () => {
    const others = objects.filter((o) => o.apiVersion !== CNPG_GROUP);
    for (const o of others)
      expect({ object: o.kind, problem: schemaProblem(o) }).toEqual({ object: o.kind, problem: undefined });
  });
});

describe('deploy/nats/values.yaml (the official NATS Helm chart)', () => {
  const values = parse(readFileSync(join(root, 'deploy', 'nats', 'values.yaml'), 'utf8')) as Obj;
  const scaledObject = rendered.production.find((o) => o.kind === 'ScaledObject')!;
  const trigger = scaledObject.spec.triggers.find((t: Obj) => t.type === 'nats-jetstream');

  it('should run a 3-node cluster with JetStream on persistent volumes', () => {
    expect(values.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    expect(values.config.jetstream.enabled).toBe(true);
    expect(values.config.jetstream.fileStore).toMatchObject({ enabled: true });
    expect(values.config.jetstream.fileStore.pvc).toMatchObject({ enabled: true });
    expect(values.config.jetstream.fileStore.pvc.size).toMatch(/^[0-9]+Gi$/);
  });

  it('should serve the monitoring port the KEDA scaler reads', () => {
    const [host, port] = String(trigger.metadata.natsServerMonitoringEndpoint).split(':');
    expect(values.config.monitor).toMatchObject({ enabled: true, port: Number(port) });
    // The chart's headless Service is <release>-headless in the release's namespace.
    expect(host).toBe(`${values.fullnameOverride ?? 'nats'}-headless.nats.svc.cluster.local`);
  });

  it('should answer the apps on the client port of NATS_URL', () => {
    const config = rendered.production.find((o) => o.kind === 'ConfigMap')!.data;
    const url = new URL(config.NATS_URL);
    expect(Number(url.port)).toBe(values.config.nats?.port ?? 4222);
    expect(url.hostname).toBe(`${values.fullnameOverride ?? 'nats'}.nats.svc.cluster.local`);
  });

  it('should pin the NATS image to a version', () => {
    expect(String(values.container.image.tag)).toMatch(/^2\.[0-9]+\.[0-9]+/);
  });
});

// ---- docker-compose.yml --------------------------------------------------------------------

/** Compose's interpolation with an empty shell environment: `${X:-default}`, `${X}`, `$$`. */
function interpolate(value: string): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g, (match, _name, fallback) =>
    match === '$$' ? '$' : (fallback ?? ''),
  );
}

describe('docker-compose.yml, parsed by each app’s config schema', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as Obj;
  const services = Object.entries(compose.services as Record<string, Obj>);
  /** Each app container's environment, with Compose's defaults filled in. */
  const apps = services.flatMap(([name, service]) => {
    const app = appOf(service.command);
    const env = Object.fromEntries(
      Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value))]),
    );
    return app ? [{ name, app, env }] : [];
  });

  it('should start every app container with its environment', () => {
    expect(apps.length).toBeGreaterThanOrEqual(14);
    const problems = Object.fromEntries(
      apps.map(({ name, app, env }) => [`${name} (${app})`, configProblems(app, env)]),
    );
    expect(problems).toEqual(noProblems(problems));
  });

  it('should connect every app as its own role, the one database-roles creates before the migrations', () => {
    expectOwnRoles(apps);
  });

  it('should publish ports on 127.0.0.1 only', () => {
    const published = services.flatMap(([name, service]) =>
      (service.ports ?? []).map((port: string | Obj) => ({
        name,
        hostIp: typeof port === 'string' ? port.split(':')[0] : port.host_ip,
        parts: typeof port === 'string' ? port.split(':').length : 3,
      })),
    );
    expect(published.length).toBeGreaterThan(0);
    expect(published).toEqual(published.map(({ name }) => ({ name, hostIp: '127.0.0.1', parts: 3 })));
  });

  it('should say it needs Compose v2 (the top-level name key)', () => {
    expect(compose.name).toBeDefined();
    expect(readFileSync(join(root, 'deploy', 'README.md'), 'utf8')).toMatch(/Compose v2/);
  });
});

describe('monitoring (production overlay)', () => {
  const objects = rendered.production;
  const rules: Obj[] = objects
    .filter((o) => o.kind === 'PrometheusRule')
    .flatMap((o) => o.spec.groups.flatMap((group: Obj) => group.rules));
  const dashboardMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1');
  const dashboard: Obj = JSON.parse(String(Object.values(dashboardMap?.data ?? {})[0] ?? '{}'));
  const dashboardExpressions: string[] = (dashboard.panels ?? []).flatMap((panel: Obj) =>
    (panel.targets ?? []).map((target: Obj) => String(target.expr)),
  );

  /** Every metric the apps export (the kit's, the gateway's, generation's, Node's defaults) and Prometheus' own `up`. */
  const exported = async () =>
    new Set(['up', ...(await metricsRegistry.getMetricsAsJSON()).map((metric) => metric.name)]);
  const metricsIn = (expression: string) =>
    [...expression.matchAll(/\b((?:likeness|process|nodejs)_[a-z0-9_]+|up)\b(?=\s*[{[)]|\s*$|\s*[=<>!])/g)].map(
      ([, name]) => (name as string).replace(/_(bucket|count|sum)$/, ''),
    );

  it('should alert and chart only on metrics the apps export', async () => {
    const known = await exported();
    const expressions = [...rules.map((rule) => String(rule.expr)), ...dashboardExpressions];
    expect(rules.length).toBeGreaterThanOrEqual(8);
    expect(dashboardExpressions.length).toBeGreaterThanOrEqual(10);
    const unknown = expressions.flatMap((expression) =>
      metricsIn(expression)
        .filter((name) => !known.has(name))
        .map((name) => `${name} in ${expression}`),
    );
    expect(unknown).toEqual([]);
  });

  it('should name only event types that exist where an expression filters by one', () => {
    const types = new Set(
      Object.entries(contracts)
        .filter(([key]) => key.endsWith('Events'))
        .flatMap(([, events]) => Object.values(events as Record<string, Obj>))
        .filter((event) => typeof event.service === 'string' && typeof event.name === 'string')
        .map((event) => `${event.service}.${event.name}`),
    );
    const expressions = [...rules.map((rule) => String(rule.expr)), ...dashboardExpressions];
    const named = expressions.flatMap((expression) =>
      [...expression.matchAll(/type="([^"]+)"/g)].map(([, type]) => type),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((type) => !types.has(type as string))).toEqual([]);
  });

  it('should give every alert a severity, a summary and a description', () => {
    const incomplete = rules
      .filter((rule) => rule.alert)
      .filter(
        (rule) =>
          !['warning', 'critical'].includes(rule.labels?.severity) ||
          !rule.annotations?.summary ||
          !rule.annotations?.description,
      )
      .map((rule) => rule.alert);
    expect(incomplete).toEqual([]);
  });

  it('should scrape a named port that every selected pod declares, and the gateway never on its public port', () => {
    const deployments = objects.filter((o) => o.kind === 'Deployment');
    const selects = (selector: Obj, labels: Obj) =>
      Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) &&
      (selector.matchExpressions ?? []).every((expression: Obj) => expression.values.includes(labels[expression.key]));
    const monitors = objects.filter((o) => o.kind === 'PodMonitor');
    expect(monitors.length).toBeGreaterThan(0);
    const scraped = monitors.flatMap((monitor) =>
      deployments
        .filter((deployment) => selects(monitor.spec.selector, deployment.spec.template.metadata.labels))
        .flatMap((deployment) =>
          monitor.spec.podMetricsEndpoints.map((endpoint: Obj) => ({
            deployment: deployment.metadata.name as string,
            port: deployment.spec.template.spec.containers[0].ports.find((port: Obj) => port.name === endpoint.port),
          })),
        ),
    );
    const apps = deployments.map((deployment) => deployment.metadata.name as string).sort();
    expect([...new Set(scraped.map((target) => target.deployment))].sort()).toEqual(apps);
    expect(scraped.filter((target) => target.port === undefined)).toEqual([]);
    expect(scraped.find((target) => target.deployment === 'gateway')?.port.containerPort).toBe(9464);
  });
});

describe('database connections (production)', () => {
  const objects = rendered.production;
  const sources = sourcesOf(objects, { secrets: OPERATOR_SECRETS, settings: OPERATOR_SETTINGS });
  const scalerOf = (name: string) =>
    objects.find(
      (o) => (o.kind === 'HorizontalPodAutoscaler' || o.kind === 'ScaledObject') && o.spec.scaleTargetRef.name === name,
    );
  /** The most pods a workload runs: its autoscaler's ceiling or its replicas, plus a rollout's surge. */
  const mostPods = (workload: Obj): number => {
    if (workload.kind === 'Job') return workload.spec.parallelism ?? 1;
    const scaler = scalerOf(workload.metadata.name);
    const replicas: number = scaler?.spec.maxReplicas ?? scaler?.spec.maxReplicaCount ?? workload.spec.replicas ?? 1;
    const surge = String(workload.spec.strategy?.rollingUpdate?.maxSurge ?? '25%');
    return replicas + (surge.endsWith('%') ? Math.ceil((replicas * parseInt(surge, 10)) / 100) : Number(surge));
  };

  const pools = appContainers(objects).flatMap(({ workload, app, container }) => {
    const { env } = containerEnv(container, sources);
    const config = CONFIG_SCHEMAS[app]?.parse(env) as { DATABASE_POOL_SIZE?: number };
    if (config.DATABASE_POOL_SIZE === undefined) return [];
    const [kind, name] = workload.split('/');
    const object = objects.find((o) => o.kind === kind && o.metadata.name === name)!;
    return [
      {
        workload,
        app,
        ownSetting: env['DATABASE_POOL_SIZE'] !== undefined,
        size: config.DATABASE_POOL_SIZE,
        pods: mostPods(object),
      },
    ];
  });

  it('should size each workload’s pool itself', () => {
    expect(pools.length).toBeGreaterThanOrEqual(13);
    expect(pools.filter((pool) => !pool.ownSetting).map((pool) => pool.workload)).toEqual([]);
  });

  it('should keep every pool at its most replicas, during a rollout, under max_connections with a fifth to spare', () => {
    const parameters = rendered.postgres.find((o) => o.kind === 'Cluster')!.spec.postgresql.parameters;
    const usable = Number(parameters.max_connections) - Number(parameters.superuser_reserved_connections ?? 3);
    const connections = pools.reduce((total, pool) => total + pool.size * pool.pods, 0);
    expect(connections).toBeGreaterThan(0);
    expect({ connections, within: connections <= Math.floor(usable * 0.8) }).toEqual({ connections, within: true });
  });

  it('should let each service’s role hold its pools at their most, and all the roles less than the server has', () => {
    const cluster = rendered.postgres.find((o) => o.kind === 'Cluster')!;
    const parameters = cluster.spec.postgresql.parameters;
    const usable = Number(parameters.max_connections) - Number(parameters.superuser_reserved_connections ?? 3);
    const roles: Obj[] = cluster.spec.managed.roles;
    const budgets = contracts.SERVICE_NAMES.map((service) => {
      const user = new URL(OPERATOR_SECRET[serviceDatabaseUrlKey(service)] as string).username;
      const need = pools.filter((pool) => pool.app === service).reduce((sum, pool) => sum + pool.size * pool.pods, 0);
      const limit = roles.find((role) => role.name === user)?.connectionLimit;
      return { service, need, enough: typeof limit === 'number' && limit >= need };
    });
    expect(budgets).toEqual(budgets.map((budget) => ({ ...budget, enough: true })));
    const limits = roles.reduce((sum, role) => sum + Number(role.connectionLimit), 0);
    expect({ limits, within: limits <= usable }).toEqual({ limits, within: true });
  });
});

// ---- database roles: a role per service, owning only its schema ------------------------------

/** The user each app's containers connect as (the generation workers and migrations included). */
function databaseUsers(containers: { app: string; env: Env }[]): Record<string, string[]> {
  const users: Record<string, Set<string>> = {};
  for (const { app, env } of containers) {
    if (!env['DATABASE_URL']) continue;
    (users[app] ??= new Set()).add(decodeURIComponent(new URL(env['DATABASE_URL']).username));
  }
  return Object.fromEntries(Object.entries(users).map(([app, names]) => [app, [...names]]));
}

/** One user per service, none shared, each the one the database-roles step creates. */
function expectOwnRoles(containers: { app: string; env: Env }[]): void {
  const users = databaseUsers(containers);
  expect(Object.keys(users).sort()).toEqual([...contracts.SERVICE_NAMES].sort());
  for (const [app, names] of Object.entries(users)) expect({ app, users: names.length }).toEqual({ app, users: 1 });
  const all = Object.values(users).flat();
  expect(new Set(all).size).toBe(contracts.SERVICE_NAMES.length);
  const bootstraps = containers.filter((container) => container.app === 'database-roles');
  expect(bootstraps.length).toBe(1);
  const bootstrap = bootstraps[0]!.env;
  for (const service of contracts.SERVICE_NAMES) {
    const url = bootstrap[serviceDatabaseUrlKey(service)] as string;
    expect({ service, user: decodeURIComponent(new URL(url).username) }).toEqual({
      service,
      user: users[service]?.[0],
    });
  }
  expect(all).not.toContain(decodeURIComponent(new URL(bootstrap['DATABASE_ADMIN_URL'] as string).username));
}

describe('database roles: every app connects as its own', () => {
  const envs = (objects: Obj[], sources: Sources) =>
    appContainers(objects).map(({ app, container }) => ({ app, env: containerEnv(container, sources).env }));

  it('should give every app of the dev overlay its own role, the one its Job database-roles creates', () => {
    expectOwnRoles(envs(rendered.dev, sourcesOf(rendered.dev)));
  });

  it('should do the same in production with the operator’s Secrets', () => {
    expectOwnRoles(envs(rendered.production, sourcesOf(rendered.production, { secrets: OPERATOR_SECRETS })));
  });

  it('should declare those roles in the Cluster: a login and nothing more, a password from a Secret', () => {
    const cluster = rendered.postgres.find((o) => o.kind === 'Cluster')!;
    const users = contracts.SERVICE_NAMES.map(
      (service) => new URL(OPERATOR_SECRET[serviceDatabaseUrlKey(service)] as string).username,
    );
    const roles: Obj[] = cluster.spec.managed.roles;
    expect(roles.map((role) => role.name).sort()).toEqual([...users].sort());
    for (const role of roles) {
      expect(role).toMatchObject({
        ensure: 'present',
        login: true,
        superuser: false,
        createdb: false,
        createrole: false,
        replication: false,
        bypassrls: false,
        passwordSecret: { name: expect.stringMatching(/^likeness-db-/) },
      });
      expect(role.inRoles).toBeUndefined();
    }
  });
});
