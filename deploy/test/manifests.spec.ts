// Guards the container and Kubernetes files against regressions. No Docker engine or cluster is
// needed: the files are parsed and checked for what running the product relies on.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { BUS_APPS } from '@likeness/contracts';
import { NATS_OPERATOR_USER, NATS_USERS_SECRET, natsPasswordVariable } from '@likeness/nest-kit';
import { parse, parseAllDocuments } from 'yaml';

const root = process.cwd();
const deployDir = join(root, 'deploy');
const k8sDir = join(deployDir, 'k8s');
const baseDir = join(k8sDir, 'base');
const devDir = join(k8sDir, 'overlays', 'dev');
const productionDir = join(k8sDir, 'overlays', 'production');

const SERVICES = ['auth', 'billing', 'media', 'training', 'generation', 'reporting'] as const;
const APPS = [...SERVICES, 'gateway'] as const;
type App = (typeof APPS)[number];
/** generation's worker role: the same image and command, its own Deployment (DESIGN.md §2). */
const WORKER = 'generation-worker';
/** Every long-running process: the apps and the generation workers. */
const WORKLOADS = [...APPS, WORKER] as const;
type Workload = (typeof WORKLOADS)[number];
/** The JetStream work queue the workers share, and that KEDA scales them on. */
const JOBS_STREAM = 'JOBS';
const JOBS_CONSUMER = 'generation-workers';
/** runGenerationJob's priority lane (libs/contracts), drained first by the same workers. */
const PRIORITY_CONSUMER = 'generation-workers-priority';
/** Services that call outside providers over HTTPS. */
const PROVIDER_CLIENTS = ['billing', 'generation', 'media', 'training'];
/** Each service's own database URL in likeness-secrets: its role, owning only its schema. */
const databaseUrlKey = (service: (typeof SERVICES)[number]) => `${service.toUpperCase()}_DATABASE_URL`;
/** Each workload's own NATS user's password (deploy/nats/values-auth.yaml). */
const natsKeyOf = (workload: string) => natsPasswordVariable(workload);
/** The only Secret keys an app may require; everything else must stay optional. */
const REQUIRED_SECRET_KEYS = [
  ...SERVICES.map(databaseUrlKey),
  'JWT_SECRET',
  'MEDIA_SECRET',
  ...WORKLOADS.map(natsKeyOf),
];
/** The Job that creates the services' roles and schemas, as a superuser, before the migrations. */
const DATABASE_ROLES = 'database-roles';

/** Parsed YAML, read loosely: the files are ours, and a wrong shape fails an expectation. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

// ---- helpers -------------------------------------------------------------------------------

const read = (path: string): string => readFileSync(path, 'utf8');

const parseYaml = (path: string): Obj => parse(read(path), { merge: true }) as Obj;

function parseYamlDocuments(path: string): Obj[] {
  return parseAllDocuments(read(path), { merge: true }).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]?.message}`);
    return doc.toJS() as Obj;
  });
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const isInside = (path: string, dir: string): boolean => !relative(dir, path).startsWith('..');

const kustomizationIn = (dir: string): Obj => parseYaml(join(dir, 'kustomization.yaml'));

/**
 * The objects a kustomization puts together, following resources into bases and folders.
 * A missing entry is skipped here; the kustomization tests name it.
 */
function kustomizeResources(dir: string): Obj[] {
  const kustomization = kustomizationIn(dir);
  return (kustomization.resources ?? []).flatMap((entry: string) => {
    const path = resolve(dir, entry);
    if (!existsSync(path)) return [];
    return statSync(path).isDirectory() ? kustomizeResources(path) : parseYamlDocuments(path);
  });
}

const baseObjects = kustomizeResources(baseDir);

function findObject(kind: string, name: string): Obj {
  const found = baseObjects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`deploy/k8s/base has no ${kind} ${name}`);
  return found;
}

const deploymentOf = (workload: Workload): Obj => findObject('Deployment', workload);
const containerOf = (workload: Obj): Obj => workload.spec.template.spec.containers[0];

function portNumber(container: Obj, port: number | string): number {
  if (typeof port === 'number') return port;
  const named = (container.ports ?? []).find((p: Obj) => p.name === port);
  if (!named) throw new Error(`container ${container.name} has no port named ${port}`);
  return named.containerPort;
}

/** The app a workload runs: the workers run generation. */
const appOf = (workload: Workload): App => (workload === WORKER ? 'generation' : workload);

const commandOf = (workload: Workload): string[] =>
  appOf(workload) === 'gateway'
    ? ['node', 'gateway/dist/main.js']
    : ['node', `services/${appOf(workload)}/dist/main.js`];

const probePaths = (app: Workload) =>
  app === 'gateway'
    ? { port: 3000, liveness: '/healthz', readiness: '/healthz' }
    : { port: 3100, liveness: '/health/live', readiness: '/health' };

/** A container's plain `env` values (not those from a Secret or the ConfigMap). */
function envValues(container: Obj): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? []).filter((e: Obj) => e.value !== undefined).map((e: Obj) => [e.name, e.value]),
  );
}

/** Compose durations such as `150s`, `2m` or `1m30s`, in seconds. */
function composeSeconds(duration: string): number {
  const parts = [...String(duration).matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us)/g)];
  expect(parts.map((p) => p[0]).join('')).toBe(String(duration));
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001 };
  return parts.reduce((total, [, value, u]) => total + Number(value) * (unit[u as string] ?? NaN), 0);
}

function secretRefs(container: Obj): Obj[] {
  return (container.env ?? [])
    .filter((e: Obj) => e.valueFrom?.secretKeyRef)
    .map((e: Obj) => ({ env: e.name, ...e.valueFrom.secretKeyRef }));
}

function labelsMatch(selector: Obj, labels: Obj): boolean {
  const matchLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const matchExpressions = (selector.matchExpressions ?? []).every((expr: Obj) =>
    expr.operator === 'In' ? expr.values.includes(labels[expr.key]) : true,
  );
  return matchLabels && matchExpressions;
}

/** Dockerfile instructions, continuation lines joined and comments dropped. */
function dockerInstructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

// ---- docker-compose.yml --------------------------------------------------------------------

describe('docker-compose.yml', () => {
  const compose = parseYaml(join(root, 'docker-compose.yml'));
  const services: Obj = compose.services;

  it.each(WORKLOADS)('should run %s from the shared image with its own command', (app) => {
    const service = services[app];
    expect(service).toBeDefined();
    expect(service.build).toMatchObject({ context: '.', dockerfile: 'deploy/Dockerfile' });
    expect(service.command).toEqual(commandOf(app));
  });

  it.each(WORKLOADS)('should health-check %s on its own endpoint', (app) => {
    const { port, liveness, readiness } = probePaths(app);
    const test = services[app].healthcheck.test.join(' ');
    expect(test).toContain(`127.0.0.1:${port}${app === 'gateway' ? liveness : readiness}'`);
  });

  it.each(SERVICES)('should migrate %s once in a one-shot container before it starts', (name) => {
    const migrate = services[`migrate-${name}`];
    expect(migrate).toBeDefined();
    expect(migrate.command).toEqual(['node', `services/${name}/dist/main.js`, 'migrate']);
    expect(migrate.restart ?? 'no').toBe('no');
    expect(migrate.depends_on.postgres.condition).toBe('service_healthy');
    expect(migrate.depends_on[DATABASE_ROLES].condition).toBe('service_completed_successfully');
    expect(migrate.environment).toEqual(services[name].environment);
    expect(services[name].depends_on[`migrate-${name}`]).toEqual({
      condition: 'service_completed_successfully',
    });
  });

  it('should make every dependant of a migration wait for it to complete successfully', () => {
    const waits = Object.entries(services).flatMap(([service, definition]) =>
      Object.entries((definition as Obj).depends_on ?? {})
        .filter(([dependency]) => dependency.startsWith('migrate-'))
        .map(([dependency, how]) => ({ service, dependency, condition: (how as Obj)?.condition })),
    );
    expect(waits.length).toBeGreaterThanOrEqual(SERVICES.length);
    for (const wait of waits) {
      expect(wait).toEqual({ ...wait, condition: 'service_completed_successfully' });
    }
  });

  it('should publish the gateway on host port 3000 after every service is healthy', () => {
    expect(services.gateway.ports).toContain('127.0.0.1:3000:3000');
    for (const name of SERVICES) {
      expect(services.gateway.depends_on[name]).toEqual({ condition: 'service_healthy' });
    }
  });

  it('should run the infrastructure with health checks and volumes', () => {
    expect(services.postgres.healthcheck.test.join(' ')).toContain('pg_isready');
    expect(services.postgres.volumes.join(' ')).toContain('/var/lib/postgresql/data');
    expect(services.nats.command).toContain('-js');
    expect(services.nats.healthcheck.test.join(' ')).toContain(':8222/healthz');
    expect(services.nats.volumes.length).toBeGreaterThan(0);
    expect(services.minio.healthcheck).toBeDefined();
    expect(services['minio-init'].command.join(' ')).toContain('mc mb');
    expect(services.mailpit.ports).toContain('127.0.0.1:8025:8025');
    expect(services.media.depends_on['minio-init'].condition).toBe('service_completed_successfully');
  });

  describe('generation roles', () => {
    const api = () => services.generation;
    const worker = () => services[WORKER];

    it('should run the generation API role and the worker role apart', () => {
      expect(api().environment.GENERATION_ROLE).toBe('api');
      expect(worker().environment.GENERATION_ROLE).toBe('worker');
      // The migration parses the same environment as the service it migrates.
      expect(services['migrate-generation'].environment).toEqual(api().environment);
    });

    it('should start workers after what generation waits for, and the bucket', () => {
      expect(worker().depends_on).toEqual({
        ...api().depends_on,
        'minio-init': { condition: 'service_completed_successfully' },
      });
      expect(worker().restart).toBe('unless-stopped');
    });

    it('should give the workers the same object storage as media, and its malloc arenas', () => {
      const storageKeys = Object.keys(services.media.environment).filter((key) =>
        /^(S3_|AWS_|STORAGE_|DATA_DIR)/.test(key),
      );
      expect(storageKeys).toEqual(expect.arrayContaining(['S3_ENDPOINT', 'S3_BUCKET', 'AWS_ACCESS_KEY_ID']));
      for (const key of storageKeys) {
        expect({ key, value: worker().environment[key] }).toEqual({ key, value: services.media.environment[key] });
      }
      expect(worker().environment.MALLOC_ARENA_MAX).toBe('2');
      expect(Number(worker().environment.WORKER_CONCURRENCY)).toBeGreaterThanOrEqual(1);
    });

    it('should let a stopping worker finish its jobs before it is killed', () => {
      const drainSeconds = Number(worker().environment.SHUTDOWN_GRACE_MS) / 1000;
      expect(drainSeconds).toBeGreaterThanOrEqual(60);
      expect(composeSeconds(worker().stop_grace_period)).toBeGreaterThan(drainSeconds);
    });

    it('should let the workers scale with --scale (no fixed name or host port)', () => {
      expect(worker().container_name).toBeUndefined();
      expect(worker().ports).toBeUndefined();
    });
  });

  it("should send auth's mail to the mail catcher, with links to the published app", () => {
    const url = new URL(services.auth.environment.SMTP_URL);
    expect(url.protocol).toBe('smtp:');
    expect(url.hostname).toBe('mailpit');
    expect(url.port).toBe('1025');
    expect(services.mailpit.expose).toContain('1025');
    expect(services.auth.depends_on.mailpit).toBeDefined();
    expect(services.auth.environment.PUBLIC_URL).toBe('${PUBLIC_URL:-http://localhost:3000}');
    expect(services.gateway.ports).toContain('127.0.0.1:3000:3000');
    // The migration parses the same configuration, production's mail checks included.
    expect(services['migrate-auth'].environment).toEqual(services.auth.environment);
  });

  it('should give auth and the gateway the same JWT secret of at least 32 characters', () => {
    const jwt = services.auth.environment.JWT_SECRET;
    expect(services.gateway.environment.JWT_SECRET).toBe(jwt);
    const fallback = /^\$\{JWT_SECRET:-(.*)\}$/.exec(jwt)?.[1] ?? jwt;
    expect(fallback.length).toBeGreaterThanOrEqual(32);
  });

  it("should give media and the gateway the same media secret, and the gateway media's address", () => {
    const secret = services.media.environment.MEDIA_SECRET;
    expect(services.gateway.environment.MEDIA_SECRET).toBe(secret);
    expect(services['migrate-media'].environment.MEDIA_SECRET).toBe(secret);
    const fallback = /^\$\{MEDIA_SECRET:-(.*)\}$/.exec(secret)?.[1] ?? secret;
    expect(fallback.length).toBeGreaterThanOrEqual(32);
    expect(services.gateway.environment.MEDIA_URL).toBe(`http://media:${services.media.environment.HTTP_PORT}`);
  });

  // The apps run with NODE_ENV=production, where a local stand-in runs only when named.
  it.each([
    ['billing', 'PAYMENTS_PROVIDER'],
    ['training', 'INFERENCE_PROVIDER'],
    ['generation', 'INFERENCE_PROVIDER'],
    [WORKER, 'INFERENCE_PROVIDER'],
  ])('should name the local provider %s runs with NODE_ENV=production (%s)', (service, variable) => {
    expect(services[service].environment.NODE_ENV).toBe('production');
    expect(services[service].environment[variable]).toBe(`\${${variable}:-local}`);
  });

  it('should mark every default secret as dev-only', () => {
    const secretValues = Object.values(services).flatMap((service) =>
      Object.entries((service as Obj).environment ?? {})
        .filter(([key]) => /SECRET|PASSWORD|TOKEN/.test(key))
        .map(([key, value]) => ({ key, value: String(value) })),
    );
    expect(secretValues.length).toBeGreaterThan(0);
    for (const secret of secretValues) {
      expect(secret.value).toMatch(/dev-only/);
    }
  });
});

// ---- deploy/Dockerfile ---------------------------------------------------------------------

describe('NATS users', () => {
  const compose = parseYaml(join(root, 'docker-compose.yml'));
  const nats: Obj = compose.services.nats;
  /** `${X:-default}` as compose reads it with nothing set in the shell. */
  const byDefault = (value: string) => String(value).replace(/^\$\{[A-Z_]+:-(.*)\}$/, '$1');

  it('should give every workload its own user, and no other app', () => {
    expect([...BUS_APPS].sort()).toEqual([...WORKLOADS].sort());
  });

  it('should run the compose NATS server with the generated users, each password from the environment', () => {
    expect(nats.command).toEqual(expect.arrayContaining(['-c', '/etc/nats/auth.conf']));
    expect(nats.volumes).toContain('./deploy/nats/auth.conf:/etc/nats/auth.conf:ro');
    for (const user of [...BUS_APPS, NATS_OPERATOR_USER]) {
      const variable = natsPasswordVariable(user);
      expect(nats.environment[variable]).toBe(`\${${variable}:-dev-only-nats-${user}-password}`);
    }
  });

  it.each(WORKLOADS)('should connect %s in compose as its own user, with the password the server has', (name) => {
    const env = compose.services[name].environment;
    expect(env.NATS_USER).toBe(name);
    expect(env.NATS_PASSWORD).toBe(nats.environment[natsPasswordVariable(name)]);
    expect(byDefault(env.NATS_PASSWORD)).toMatch(/^dev-only-/);
  });

  it('should give the Helm chart the same users, each password from the Secret nats-users', () => {
    const values = parseYaml(join(deployDir, 'nats', 'values-auth.yaml'));
    const users = [...BUS_APPS, NATS_OPERATOR_USER];
    expect(values.config.merge.authorization.users.map((u: Obj) => u.user)).toEqual(users);
    for (const user of users) {
      const variable = natsPasswordVariable(user);
      expect(values.container.env[variable]).toEqual({
        valueFrom: { secretKeyRef: { name: NATS_USERS_SECRET, key: variable } },
      });
    }
  });
});

describe('deploy/Dockerfile', () => {
  const instructions = dockerInstructions(read(join(deployDir, 'Dockerfile')));
  const argDefaults = Object.fromEntries(
    instructions
      .filter((i) => i.op === 'ARG' && i.args.includes('='))
      .map((i) => [i.args.slice(0, i.args.indexOf('=')), i.args.slice(i.args.indexOf('=') + 1)]),
  );
  const fromIndexes = instructions.flatMap((i, index) => (i.op === 'FROM' ? [index] : []));
  const runtimeStart = fromIndexes[fromIndexes.length - 1] ?? 0;
  const runtime = instructions.slice(runtimeStart);
  const runs = instructions.filter((i) => i.op === 'RUN').map((i) => i.args);

  const resolveArgs = (text: string) => text.replace(/\$\{(\w+)\}/g, (_, name: string) => argDefaults[name] ?? '');

  it('should base every stage on a Node 24 bookworm image pinned to a release', () => {
    const images = fromIndexes.map((index) => resolveArgs(instructions[index]?.args.split(/\s+/)[0] ?? ''));
    for (const image of images.filter((i) => i.startsWith('node:'))) {
      expect(image).toMatch(/^node:24\.[0-9]+\.[0-9]+-bookworm(-slim)?(@sha256:[0-9a-f]{64})?$/);
    }
    expect(resolveArgs(runtime[0]?.args.split(/\s+/)[0] ?? '')).toMatch(/^node:24\.[0-9]+\.[0-9]+-bookworm-slim/);
  });

  it('should label the image with the OCI annotations and carry its version', () => {
    const labels = runtime
      .filter((i) => i.op === 'LABEL')
      .map((i) => i.args)
      .join(' ');
    for (const key of ['title', 'version', 'revision', 'created', 'base.name']) {
      expect(labels).toContain(`org.opencontainers.image.${key}=`);
    }
    expect(labels).toContain('org.opencontainers.image.version="${VERSION}"');
    const runtimeArgs = runtime.filter((i) => i.op === 'ARG').map((i) => i.args.split('=')[0]);
    expect(runtimeArgs).toEqual(expect.arrayContaining(['VERSION', 'REVISION', 'NODE_RUNTIME_IMAGE']));
    const env = runtime
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toContain('APP_VERSION=${VERSION}');
  });

  it("should size V8's young generation itself, not from the pod's memory limit", () => {
    const env = runtime
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/NODE_OPTIONS="[^"]*--max-semi-space-size=32[^"]*"/);
  });

  it('should run the runtime stage as a non-root USER', () => {
    const users = runtime.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
  });

  it('should install with npm ci from the lock file and never npm install', () => {
    const firstCi = instructions.findIndex((i) => i.op === 'RUN' && /\bnpm ci\b/.test(i.args));
    const lockCopy = instructions.findIndex((i) => i.op === 'COPY' && i.args.includes('package-lock.json'));
    expect(firstCi).toBeGreaterThan(-1);
    expect(lockCopy).toBeGreaterThan(-1);
    expect(lockCopy).toBeLessThan(firstCi);
    for (const run of runs) {
      expect(run).not.toMatch(/\b(npm|pnpm|yarn)\s+(install|i|add)\b/);
    }
  });

  it('should copy every workspace manifest before npm ci', () => {
    const rootPackage = JSON.parse(read(join(root, 'package.json'))) as { workspaces: string[] };
    const workspaces = rootPackage.workspaces.flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -1)}${name}`)
        : [pattern],
    );
    const manifests = workspaces.filter((w) => existsSync(join(root, w, 'package.json')));
    expect(manifests.length).toBeGreaterThan(0);
    const copies = instructions.filter((i) => i.op === 'COPY').map((i) => i.args);
    for (const workspace of manifests) {
      expect(copies).toContain(`${workspace}/package.json ${workspace}/`);
    }
  });

  it('should build, then keep only production dependencies', () => {
    expect(runs.some((run) => /npm run build/.test(run))).toBe(true);
    expect(runs.some((run) => /npm (ci|prune) --omit=dev/.test(run))).toBe(true);
  });

  it('should ship every app, the libraries they run on, the SPA and signal handling in the runtime stage', () => {
    const copies = runtime.filter((i) => i.op === 'COPY').map((i) => i.args);
    // Every workspace library except the test infrastructure and `npm start`'s runtime is imported at run time.
    const localOnly = ['testing', 'devstack'];
    const runtimeLibs = readdirSync(join(root, 'libs')).filter((lib) => !localOnly.includes(lib));
    const shipped = [
      ...runtimeLibs.map((lib) => `libs/${lib}/dist`),
      ...SERVICES.map((s) => `services/${s}/dist`),
      'gateway/dist',
      'frontend/dist',
    ];
    for (const dist of shipped) {
      expect(copies.some((copy) => copy.endsWith(` ${dist}`))).toBe(true);
    }
    for (const lib of localOnly) expect(copies.some((copy) => copy.includes(`libs/${lib}/`))).toBe(false);
    const env = runtime
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toContain('NODE_ENV=production');
    expect(env).toContain('STATIC_DIR=/app/frontend/dist');
    expect(runtime.find((i) => i.op === 'ENTRYPOINT')?.args).toContain('tini');
    expect(JSON.parse(runtime.find((i) => i.op === 'CMD')?.args ?? '[]')).toEqual(commandOf('gateway'));
  });
});

describe('.dockerignore', () => {
  it('should keep installed, built and local files out of the build context', () => {
    const ignored = read(join(root, '.dockerignore')).split(/\r?\n/);
    for (const pattern of ['**/node_modules', '**/dist', '.data', '.git', 'coverage', 'test-results']) {
      expect(ignored).toContain(pattern);
    }
  });
});

// ---- deploy/k8s ----------------------------------------------------------------------------

describe('deploy/k8s kustomizations', () => {
  const kustomizationDirs = walk(k8sDir)
    .filter((path) => path.endsWith('/kustomization.yaml'))
    .map(dirname);

  it('should have a base and the dev and production overlays', () => {
    expect(kustomizationDirs).toEqual(expect.arrayContaining([baseDir, devDir, productionDir]));
  });

  it.each(kustomizationDirs.map((dir) => relative(root, dir)))(
    'should point every entry of %s/kustomization.yaml at something that exists',
    (dir) => {
      const kustomization = kustomizationIn(join(root, dir));
      const generatorFiles = [
        ...(kustomization.configMapGenerator ?? []),
        ...(kustomization.secretGenerator ?? []),
      ].flatMap((g: Obj) => [...(g.envs ?? []), ...(g.files ?? [])]);
      const entries: string[] = [
        ...(kustomization.resources ?? []),
        ...(kustomization.components ?? []),
        ...(kustomization.patches ?? []).flatMap((p: Obj) => (p.path ? [p.path] : [])),
        ...generatorFiles,
      ];
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        // A generator's file may be given a key: `key=path`.
        const path = resolve(root, dir, entry.split('=').pop() as string);
        expect({ entry, exists: existsSync(path) }).toEqual({ entry, exists: true });
        if (statSync(path).isDirectory()) {
          expect(existsSync(join(path, 'kustomization.yaml'))).toBe(true);
        }
      }
    },
  );

  it('should build both overlays on the base', () => {
    for (const overlay of [devDir, productionDir]) {
      expect(kustomizationIn(overlay).resources).toContain('../../base');
    }
  });
});

describe('deploy/k8s base', () => {
  it('should put everything in the likeness namespace', () => {
    expect(kustomizationIn(baseDir).namespace).toBe('likeness');
    expect(findObject('Namespace', 'likeness')).toBeDefined();
  });

  it.each(WORKLOADS)('should deploy %s with liveness, readiness and startup probes', (app) => {
    const container = containerOf(deploymentOf(app));
    const { port, liveness, readiness } = probePaths(app);
    expect(container.livenessProbe.httpGet.path).toBe(liveness);
    expect(portNumber(container, container.livenessProbe.httpGet.port)).toBe(port);
    expect(container.readinessProbe.httpGet.path).toBe(readiness);
    expect(portNumber(container, container.readinessProbe.httpGet.port)).toBe(port);
    expect(container.startupProbe.httpGet.path).toBe(liveness);
  });

  it.each(WORKLOADS)('should run %s with its command behind the image entrypoint', (app) => {
    const container = containerOf(deploymentOf(app));
    // `command` would replace tini, and SIGTERM would no longer reach node reliably.
    expect(container.command).toBeUndefined();
    expect(container.args).toEqual(commandOf(app));
  });

  it.each(WORKLOADS)('should run %s as non-root on a read-only root filesystem', (app) => {
    const pod = deploymentOf(app).spec.template.spec;
    const container = containerOf(deploymentOf(app));
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(pod.securityContext.seccompProfile.type).toBe('RuntimeDefault');
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    const tmp = container.volumeMounts.find((m: Obj) => m.mountPath === '/tmp');
    expect(pod.volumes.find((v: Obj) => v.name === tmp?.name)?.emptyDir).toBeDefined();
  });

  it.each(WORKLOADS)('should give %s resource requests and limits', (app) => {
    const { resources } = containerOf(deploymentOf(app));
    expect(resources.requests).toEqual({ cpu: expect.anything(), memory: expect.anything() });
    expect(resources.limits).toEqual({ cpu: expect.anything(), memory: expect.anything() });
  });

  it.each(WORKLOADS)('should give %s time to drain on shutdown', (app) => {
    const pod = deploymentOf(app).spec.template.spec;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
    // The app's own drain (SHUTDOWN_GRACE_MS, default 10 s) must end before the kubelet's SIGKILL.
    const drainMs = Number(envValues(containerOf(deploymentOf(app))).SHUTDOWN_GRACE_MS ?? 10_000);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drainMs / 1000);
  });

  it.each(WORKLOADS)('should cover %s with a PodDisruptionBudget and a Service', (app) => {
    const template = deploymentOf(app).spec.template;
    expect(labelsMatch(findObject('PodDisruptionBudget', app).spec.selector, template.metadata.labels)).toBe(true);
    expect(labelsMatch({ matchLabels: findObject('Service', app).spec.selector }, template.metadata.labels)).toBe(true);
    expect(labelsMatch(deploymentOf(app).spec.selector, template.metadata.labels)).toBe(true);
  });

  it.each([...SERVICES, WORKER] as const)('should let Prometheus scrape %s on 3100', (name) => {
    const annotations = deploymentOf(name).spec.template.metadata.annotations;
    expect(annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '3100',
      'prometheus.io/path': '/metrics',
    });
  });

  it.each(SERVICES)('should migrate %s in a Job that runs once and is cleaned up', (name) => {
    const job = findObject('Job', `migrate-${name}`);
    const container = containerOf(job);
    expect(container.command).toBeUndefined();
    expect(container.args).toEqual(['node', `services/${name}/dist/main.js`, 'migrate']);
    expect(job.spec.backoffLimit).toEqual(expect.any(Number));
    expect(job.spec.ttlSecondsAfterFinished).toEqual(expect.any(Number));
    expect(['Never', 'OnFailure']).toContain(job.spec.template.spec.restartPolicy);
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(container.resources.limits).toBeDefined();
    // The migration pod must not count as a replica of the service.
    const serviceSelector = deploymentOf(name).spec.selector;
    expect(labelsMatch(serviceSelector, job.spec.template.metadata.labels)).toBe(false);
    if (name === 'generation') {
      expect(labelsMatch(deploymentOf(WORKER).spec.selector, job.spec.template.metadata.labels)).toBe(false);
    }
    // Same secrets as the service, so one config schema parses the same environment; but no NATS
    // user: a migration never connects to NATS.
    expect(secretRefs(container)).toEqual(
      secretRefs(containerOf(deploymentOf(name))).filter((ref) => ref.env !== 'NATS_PASSWORD'),
    );
    expect(envValues(container).NATS_USER).toBeUndefined();
  });

  it('should reference likeness-secrets without creating it, requiring only the core keys', () => {
    expect(baseObjects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(kustomizationIn(baseDir).secretGenerator).toBeUndefined();
    const workloads = baseObjects.filter(
      (o) => (o.kind === 'Deployment' || o.kind === 'Job') && o.metadata.name !== DATABASE_ROLES,
    );
    const refs = workloads.flatMap((w) => secretRefs(containerOf(w)));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.name).toBe('likeness-secrets');
      if (!REQUIRED_SECRET_KEYS.includes(ref.key)) expect(ref).toMatchObject({ optional: true });
    }
    const required = (app: Workload) =>
      secretRefs(containerOf(deploymentOf(app)))
        .filter((ref) => !ref.optional)
        .map((ref) => ref.key)
        .sort();
    expect(required('gateway')).toEqual(['JWT_SECRET', 'MEDIA_SECRET', natsKeyOf('gateway')].sort());
    expect(required('auth')).toEqual(['AUTH_DATABASE_URL', 'JWT_SECRET', natsKeyOf('auth')].sort());
    expect(required('media')).toEqual(['MEDIA_DATABASE_URL', 'MEDIA_SECRET', natsKeyOf('media')].sort());
    for (const name of [...SERVICES.filter((s) => s !== 'auth' && s !== 'media'), WORKER] as Workload[]) {
      expect(required(name)).toEqual(
        [databaseUrlKey(appOf(name) as (typeof SERVICES)[number]), natsKeyOf(name)].sort(),
      );
    }
  });

  it('should give each service, its migration and its workers their own database URL as DATABASE_URL', () => {
    const databaseUrlOf = (workload: Obj) =>
      secretRefs(containerOf(workload)).find((ref) => ref.env === 'DATABASE_URL')?.key;
    for (const name of SERVICES) {
      expect(databaseUrlOf(deploymentOf(name))).toBe(databaseUrlKey(name));
      expect(databaseUrlOf(findObject('Job', `migrate-${name}`))).toBe(databaseUrlKey(name));
    }
    expect(databaseUrlOf(deploymentOf(WORKER))).toBe(databaseUrlKey('generation'));
  });

  it('should create the roles in a Job that alone reads the superuser’s Secret', () => {
    const job = findObject('Job', DATABASE_ROLES);
    const container = containerOf(job);
    expect(container.args).toEqual(['node', 'libs/nest-kit/dist/bin/database-roles.js']);
    expect(secretRefs(container).map(({ env, name, key }) => ({ env, name, key }))).toEqual([
      { env: 'DATABASE_ADMIN_URL', name: 'likeness-db-admin', key: 'DATABASE_ADMIN_URL' },
      ...SERVICES.map((service) => ({
        env: databaseUrlKey(service),
        name: 'likeness-secrets',
        key: databaseUrlKey(service),
      })),
    ]);
    const admins = baseObjects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
      .filter((o) => secretRefs(containerOf(o)).some((ref) => ref.name === 'likeness-db-admin'))
      .map((o) => o.metadata.name);
    expect(admins).toEqual([DATABASE_ROLES]);
    // Not a migration: the release applies and awaits it first (deploy/README.md, "Releasing").
    expect(job.spec.template.metadata.labels['app.kubernetes.io/component']).toBe(DATABASE_ROLES);
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
  });

  it.each(WORKLOADS)('should connect %s to NATS as its own user, its password from likeness-secrets', (name) => {
    const container = containerOf(deploymentOf(name));
    expect(envValues(container).NATS_USER).toBe(name);
    expect(secretRefs(container)).toContainEqual({
      env: 'NATS_PASSWORD',
      name: 'likeness-secrets',
      key: natsKeyOf(name),
    });
  });

  it('should route / to the gateway through the Ingress', () => {
    const ingresses = baseObjects.filter((o) => o.kind === 'Ingress');
    const paths = ingresses.flatMap((i) => i.spec.rules.flatMap((r: Obj) => r.http.paths));
    expect(paths).toContainEqual(
      expect.objectContaining({
        path: '/',
        pathType: 'Prefix',
        backend: { service: { name: 'gateway', port: expect.anything() } },
      }),
    );
  });

  it('should autoscale the gateway on CPU without pinning its replica count', () => {
    const hpa = findObject('HorizontalPodAutoscaler', 'gateway');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'gateway' });
    expect(hpa.spec.metrics).toContainEqual(
      expect.objectContaining({ resource: expect.objectContaining({ name: 'cpu' }) }),
    );
    expect(deploymentOf('gateway').spec.replicas).toBeUndefined();
  });

  describe('generation roles', () => {
    const api = () => deploymentOf('generation');
    const worker = () => deploymentOf(WORKER);
    const labelsOf = (deployment: Obj): Obj => deployment.spec.template.metadata.labels;
    /** Every selector that picks a workload's pods: its Deployment's, Service's and PDB's. */
    const selectorsOf = (workload: Workload): Obj[] => [
      deploymentOf(workload).spec.selector,
      { matchLabels: findObject('Service', workload).spec.selector },
      findObject('PodDisruptionBudget', workload).spec.selector,
    ];

    it('should run the API role and the worker role of the same image and command', () => {
      expect(envValues(containerOf(api())).GENERATION_ROLE).toBe('api');
      expect(envValues(containerOf(worker())).GENERATION_ROLE).toBe('worker');
      expect(containerOf(worker()).image).toBe(containerOf(api()).image);
      expect(containerOf(worker()).args).toEqual(containerOf(api()).args);
    });

    it("should keep the API's and the workers' selectors disjoint", () => {
      expect(labelsOf(worker())['app.kubernetes.io/name']).toBe('generation');
      expect(labelsOf(worker())['app.kubernetes.io/component']).toBe('worker');
      for (const selector of selectorsOf('generation')) expect(labelsMatch(selector, labelsOf(worker()))).toBe(false);
      for (const selector of selectorsOf(WORKER)) expect(labelsMatch(selector, labelsOf(api()))).toBe(false);
    });

    it('should drain a worker longer than an API replica, within its grace period', () => {
      const env = envValues(containerOf(worker()));
      expect(Number(env.WORKER_CONCURRENCY)).toBeGreaterThanOrEqual(1);
      expect(Number(env.SHUTDOWN_GRACE_MS)).toBeGreaterThanOrEqual(60_000);
      expect(worker().spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
        Number(env.SHUTDOWN_GRACE_MS) / 1000,
      );
    });

    it('should limit glibc malloc arenas wherever sharp does image work', () => {
      expect(envValues(containerOf(deploymentOf('media'))).MALLOC_ARENA_MAX).toBe('2');
      expect(envValues(containerOf(worker())).MALLOC_ARENA_MAX).toBe('2');
    });

    it("should give the workers media's S3 credentials, optional", () => {
      const s3 = (workload: Workload) =>
        secretRefs(containerOf(deploymentOf(workload))).filter((r) => /^AWS_/.test(r.key));
      expect(s3('media').length).toBeGreaterThan(0);
      expect(s3(WORKER)).toEqual(s3('media'));
    });

    it('should leave the worker replica count to KEDA', () => {
      expect(worker().spec.replicas).toBeUndefined();
      const hpas = baseObjects.filter((o) => o.kind === 'HorizontalPodAutoscaler');
      expect(hpas.filter((h) => h.spec.scaleTargetRef.name === WORKER)).toEqual([]);
    });

    it('should scale the workers with KEDA on the lag of both lanes of the JOBS queue', () => {
      const scaledObjects = baseObjects.filter((o) => o.kind === 'ScaledObject');
      expect(scaledObjects).toHaveLength(1);
      const scaled = findObject('ScaledObject', WORKER);
      expect(scaled.apiVersion).toBe('keda.sh/v1alpha1');
      expect(scaled.spec.scaleTargetRef.name).toBe(WORKER);
      expect(scaled.spec.scaleTargetRef.kind ?? 'Deployment').toBe('Deployment');
      expect(scaled.spec.scaleTargetRef.apiVersion ?? 'apps/v1').toBe('apps/v1');
      expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(scaled.spec.maxReplicaCount).toBeGreaterThan(scaled.spec.minReplicaCount);
      const triggers = scaled.spec.triggers.filter((t: Obj) => t.type === 'nats-jetstream');
      expect(triggers.map((t: Obj) => t.metadata.consumer)).toEqual([JOBS_CONSUMER, PRIORITY_CONSUMER]);
      const [trigger, priority] = triggers;
      expect(trigger?.metadata).toMatchObject({ account: '$G', stream: JOBS_STREAM, consumer: JOBS_CONSUMER });
      expect({ ...priority.metadata, consumer: JOBS_CONSUMER }).toEqual(trigger.metadata);
      // NATS's HTTP monitoring port, in the namespace NATS_URL points at.
      const natsHost = new URL(/^NATS_URL=(.*)$/m.exec(read(join(baseDir, 'config.env')))?.[1] ?? '').hostname;
      const [, natsNamespace] = natsHost.split('.');
      expect(trigger.metadata.natsServerMonitoringEndpoint).toMatch(
        new RegExp(`^[a-z0-9-]+\\.${natsNamespace}\\.svc(\\.cluster\\.local)?:8222$`),
      );
      expect(Number(trigger.metadata.lagThreshold)).toBeGreaterThanOrEqual(
        Number(envValues(containerOf(worker())).WORKER_CONCURRENCY),
      );
      // KEDA's trigger metadata is a map of strings: a bare YAML number fails validation.
      for (const value of Object.values(trigger.metadata)) expect(typeof value).toBe('string');
    });

    it('should label the workload objects so release step 2 (deploy/README.md) leaves them for step 4', () => {
      const notIn = /component notin \(([^)]*)\)/.exec(read(join(deployDir, 'README.md')))?.[1]?.split(',') ?? [];
      const rolled = baseObjects.filter((o) =>
        ['Deployment', 'Service', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'ScaledObject'].includes(o.kind),
      );
      expect(rolled.length).toBeGreaterThan(0);
      for (const o of rolled) {
        const component = o.metadata.labels?.['app.kubernetes.io/component'];
        expect({ object: `${o.kind}/${o.metadata.name}`, held: notIn.includes(component) }).toEqual({
          object: `${o.kind}/${o.metadata.name}`,
          held: true,
        });
      }
    });
  });

  describe('network policies', () => {
    const policies = baseObjects.filter((o) => o.kind === 'NetworkPolicy');
    const podLabels = (app: Workload) => deploymentOf(app).spec.template.metadata.labels;
    const policiesFor = (labels: Obj) => policies.filter((p) => labelsMatch(p.spec.podSelector, labels));
    const egressPorts = (labels: Obj) =>
      new Set(
        policiesFor(labels)
          .flatMap((p) => p.spec.egress ?? [])
          .flatMap((rule: Obj) => (rule.ports ?? []).map((port: Obj) => port.port)),
      );

    it('should deny all traffic to and from every Likeness pod by default', () => {
      const deny = policies.find((p) => !p.spec.ingress && !p.spec.egress && p.spec.policyTypes.length === 2);
      const selector = deny?.spec.podSelector;
      expect(selector).toBeDefined();
      for (const app of WORKLOADS) expect(labelsMatch(selector, podLabels(app))).toBe(true);
      for (const name of SERVICES) {
        const jobLabels = findObject('Job', `migrate-${name}`).spec.template.metadata.labels;
        expect(labelsMatch(selector, jobLabels)).toBe(true);
      }
      expect(labelsMatch(selector, findObject('Job', DATABASE_ROLES).spec.template.metadata.labels)).toBe(true);
    });

    it('should let traffic into the gateway only from the ingress controller, and Prometheus on its metrics port', () => {
      const rules = policiesFor(podLabels('gateway')).flatMap((p) => p.spec.ingress ?? []);
      const allowed = rules.flatMap((rule: Obj) =>
        rule.from.flatMap((peer: Obj) =>
          rule.ports.map((port: Obj) => ({
            namespace: peer.ipBlock
              ? 'an address block'
              : peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'],
            port: port.port,
          })),
        ),
      );
      expect(allowed).toEqual(
        expect.arrayContaining([
          { namespace: 'ingress-nginx', port: 3000 },
          { namespace: 'monitoring', port: 9464 },
        ]),
      );
      expect(allowed).toHaveLength(2);
    });

    it.each([...SERVICES, WORKER] as const)(
      'should let traffic into %s only on its health and metrics port',
      (name) => {
        const rules = policiesFor(podLabels(name)).flatMap((p) => p.spec.ingress ?? []);
        expect(rules.length).toBeGreaterThan(0);
        for (const rule of rules) expect(rule.ports.map((p: Obj) => p.port)).toEqual([3100]);
      },
    );

    it('should let nothing but the monitoring namespace into the workers', () => {
      const rules = policiesFor(podLabels(WORKER)).flatMap((p) => p.spec.ingress ?? []);
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) {
        expect(rule.from).toEqual([
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
        ]);
      }
    });

    it.each(WORKLOADS)('should let %s reach DNS, NATS and only what it needs', (app) => {
      const ports = egressPorts(podLabels(app));
      expect(ports.has(53)).toBe(true);
      expect(ports.has(4222)).toBe(true);
      expect(ports.has(5432)).toBe(app !== 'gateway');
      expect(ports.has(443)).toBe(PROVIDER_CLIENTS.includes(appOf(app)));
    });

    it("should let the gateway reach media's HTTP port, and only the gateway", () => {
      const egress = policiesFor(podLabels('gateway')).flatMap((p) => p.spec.egress ?? []);
      expect(egress).toContainEqual(
        expect.objectContaining({
          to: [{ podSelector: { matchLabels: deploymentOf('media').spec.selector.matchLabels } }],
          ports: [{ protocol: 'TCP', port: 3100 }],
        }),
      );
      const fromGateway = policiesFor(podLabels('media'))
        .flatMap((p) => p.spec.ingress ?? [])
        .filter((rule: Obj) => rule.from.some((peer: Obj) => peer.podSelector));
      expect(fromGateway).toHaveLength(1);
      expect(labelsMatch(fromGateway[0].from[0].podSelector, podLabels('gateway'))).toBe(true);
      expect(fromGateway[0].ports.map((p: Obj) => p.port)).toEqual([3100]);
    });

    it.each([...SERVICES.map((name) => `migrate-${name}`), DATABASE_ROLES])(
      'should let the Job %s reach PostgreSQL',
      (name) => {
        const ports = egressPorts(findObject('Job', name).spec.template.metadata.labels);
        expect(ports.has(53)).toBe(true);
        expect(ports.has(5432)).toBe(true);
      },
    );
  });
});

describe('deploy/k8s overlays', () => {
  const dev = kustomizationIn(devDir);
  const production = kustomizationIn(productionDir);

  it('should run one replica of every app from the dev image in dev', () => {
    expect(dev.images).toContainEqual(expect.objectContaining({ name: 'likeness', newTag: 'dev' }));
    for (const app of WORKLOADS) {
      expect(dev.replicas).toContainEqual({ name: app, count: 1 });
    }
  });

  it('should leave KEDA out of dev: no ScaledObject, one worker', () => {
    const deleted = (dev.patches ?? [])
      .filter((p: Obj) => p.path)
      .flatMap((p: Obj) => parseYamlDocuments(join(devDir, p.path)))
      .filter((o: Obj) => o.$patch === 'delete');
    expect(deleted).toContainEqual(
      expect.objectContaining({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: WORKER } }),
    );
  });

  it('should let KEDA, not replicas, size the production workers', () => {
    expect(production.replicas.map((r: Obj) => r.name)).not.toContain(WORKER);
    const patch = production.patches.find((p: Obj) => p.target?.kind === 'ScaledObject' && p.target?.name === WORKER);
    expect(patch?.target.group).toBe('keda.sh');
    const operations = parse(patch.patch) as Obj[];
    const value = (path: string) => operations.find((o) => o.op === 'replace' && o.path === path)?.value;
    expect(value('/spec/minReplicaCount')).toBeGreaterThanOrEqual(2);
    expect(value('/spec/maxReplicaCount')).toBeGreaterThan(value('/spec/minReplicaCount'));
  });

  // config.env says NODE_ENV=production: a local stand-in must be named, a real one needs its keys.
  const literalsOf = (kustomization: Obj): string[] =>
    kustomization.configMapGenerator.find((g: Obj) => g.name === 'likeness-config').literals;

  it('should name the local payment and inference providers in dev', () => {
    expect(literalsOf(dev)).toEqual(expect.arrayContaining(['PAYMENTS_PROVIDER=local', 'INFERENCE_PROVIDER=local']));
  });

  it('should name Stripe and Replicate in production, so missing keys stop start-up', () => {
    expect(literalsOf(production)).toEqual(
      expect.arrayContaining(['PAYMENTS_PROVIDER=stripe', 'INFERENCE_PROVIDER=replicate']),
    );
    expect(read(join(baseDir, 'config.env'))).not.toMatch(/^(PAYMENTS|INFERENCE)_PROVIDER=local$/m);
  });

  it("should send auth's mail to the dev overlay's mail catcher, which auth may reach", () => {
    expect(dev.resources).toContain('mailpit.yaml');
    const objects = parseYamlDocuments(join(devDir, 'mailpit.yaml'));
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'mailpit')!;
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'mailpit')!;
    const smtp = service.spec.ports.find((p: Obj) => p.name === 'smtp');
    expect(labelsMatch({ matchLabels: service.spec.selector }, deployment.spec.template.metadata.labels)).toBe(true);
    const secrets = read(join(devDir, 'secrets.dev.env'));
    const namespace = kustomizationIn(baseDir).namespace;
    expect(secrets).toMatch(
      new RegExp(`^SMTP_URL=smtp://mailpit\\.${namespace}\\.svc\\.cluster\\.local:${smtp.port}$`, 'm'),
    );
    const policy = objects.find((o) => o.kind === 'NetworkPolicy')!;
    expect(labelsMatch(policy.spec.podSelector, deploymentOf('auth').spec.template.metadata.labels)).toBe(true);
    expect(policy.spec.egress).toContainEqual({
      to: [{ podSelector: { matchLabels: deployment.spec.template.metadata.labels } }],
      ports: [{ protocol: 'TCP', port: smtp.port }],
    });
    expect(literalsOf(dev)).toContain('PUBLIC_URL=http://localhost:8080');
  });

  it('should generate a dev-only likeness-secrets in dev', () => {
    const generator = dev.secretGenerator.find((g: Obj) => g.name === 'likeness-secrets');
    const values = Object.fromEntries(
      generator.envs
        .flatMap((file: string) => read(join(devDir, file)).split(/\r?\n/))
        .filter((line: string) => /^[A-Z_]+=/.test(line))
        .map((line: string) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    for (const service of SERVICES) expect(values[databaseUrlKey(service)]).toMatch(/^postgres(ql)?:\/\//);
    expect(values.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(values.MEDIA_SECRET.length).toBeGreaterThanOrEqual(32);
    for (const [key, value] of Object.entries(values)) {
      if (/SECRET|PASSWORD|TOKEN|DATABASE_URL/.test(key)) expect(value).toMatch(/dev-only/);
    }
  });

  it('should run production from a release tag with more replicas', () => {
    const image = production.images.find((i: Obj) => i.name === 'likeness');
    expect(image.newTag).toBeDefined();
    expect(image.newTag).not.toBe('dev');
    for (const name of SERVICES) {
      const replicas = production.replicas.find((r: Obj) => r.name === name);
      expect(replicas.count).toBeGreaterThan(1);
    }
    expect(production.secretGenerator).toBeUndefined();
  });

  it('should keep at least 3 gateway replicas in production', () => {
    const hpaPatch = production.patches.find(
      (p: Obj) => p.target?.kind === 'HorizontalPodAutoscaler' && p.target?.name === 'gateway',
    );
    const operations = parse(hpaPatch.patch) as Obj[];
    expect(operations).toContainEqual({ op: 'replace', path: '/spec/minReplicas', value: 3 });
  });

  it('should serve production over TLS on its host', () => {
    const patches = production.patches
      .filter((p: Obj) => p.path)
      .flatMap((p: Obj) => parseYamlDocuments(join(productionDir, p.path)));
    const ingress = patches.find((o: Obj) => o.kind === 'Ingress');
    expect(ingress.spec.tls[0].hosts.length).toBeGreaterThan(0);
    expect(ingress.spec.rules[0].host).toBe(ingress.spec.tls[0].hosts[0]);
  });
});

describe('secrets in deployment files', () => {
  // Compose and the dev overlay hold dev-only defaults on purpose; everything else must not.
  const scanned = [
    ...walk(deployDir).filter((path) => !isInside(path, devDir) && !isInside(path, join(deployDir, 'test'))),
    join(root, '.dockerignore'),
  ];
  const realLooking: [string, RegExp][] = [
    ['Stripe secret key', /\b[sr]k_(live|test)_[0-9A-Za-z]{10,}/],
    ['Stripe webhook secret', /\bwhsec_[0-9A-Za-z]{10,}/],
    ['Replicate token', /\br8_[0-9A-Za-z]{20,}/],
    ['AWS access key id', /\b(AKIA|ASIA)[0-9A-Z]{16}\b/],
    ['private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
    ['password in a URL', /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@<>]+@/],
    ['JWT', /\beyJ[0-9A-Za-z_-]{10,}\.[0-9A-Za-z_-]{10,}\./],
  ];

  it.each(scanned.map((path) => relative(root, path)))('should find no real-looking secret in %s', (file) => {
    const text = read(join(root, file));
    for (const [what, pattern] of realLooking) {
      expect({ what, match: pattern.exec(text)?.[0] }).toEqual({ what, match: undefined });
    }
  });

  it('should define no Secret values in Kubernetes manifests outside the dev overlay', () => {
    const manifests = walk(k8sDir).filter((path) => /\.ya?ml$/.test(path) && !isInside(path, devDir));
    for (const path of manifests) {
      for (const doc of parseYamlDocuments(path)) {
        expect({ path, kind: doc?.kind === 'Secret' ? 'Secret' : 'other' }).toEqual({
          path,
          kind: 'other',
        });
        for (const generator of doc?.secretGenerator ?? []) {
          expect({ path, generator: generator.name }).toEqual({ path, generator: undefined });
        }
      }
    }
  });

  it('should set no secret-looking key in an env file outside the dev overlay', () => {
    const envFiles = walk(k8sDir).filter((path) => path.endsWith('.env') && !isInside(path, devDir));
    expect(envFiles.length).toBeGreaterThan(0);
    for (const path of envFiles) {
      const keys = read(path)
        .split(/\r?\n/)
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.slice(0, line.indexOf('=')));
      expect(keys.filter((key) => /SECRET|PASSWORD|TOKEN|ACCESS_KEY|DATABASE_URL|SMTP_URL/.test(key))).toEqual([]);
    }
  });
});

describe('listening addresses', () => {
  // The apps bind to 127.0.0.1 unless told otherwise; in a container nothing could reach them.
  it('should make every app listen on all interfaces in Kubernetes', () => {
    const settings = read(join(baseDir, 'config.env'));
    expect(settings).toMatch(/^HOST=0\.0\.0\.0$/m);
    expect(settings).toMatch(/^HTTP_HOST=0\.0\.0\.0$/m);
  });

  it('should make every app listen on all interfaces in docker compose', () => {
    const compose = parseYaml(join(root, 'docker-compose.yml'));
    for (const service of [...SERVICES, WORKER] as const)
      expect(compose.services[service].environment.HTTP_HOST).toBe('0.0.0.0');
    expect(compose.services.gateway.environment.HOST).toBe('0.0.0.0');
  });
});
