import { waitFor } from '../src/free-port.js';
import {
  type LikenessProcess,
  type ProcessInfo,
  descendantsOf,
  isReady,
  isRunning,
  startLikeness,
} from './likeness-process.js';

// Everything below stops within this after a signal (the apps' grace is 15 s per tier; usually 2-5 s).
const STOP_BOUND_MS = 45_000;

const gone = (processes: ProcessInfo[]) => processes.filter((process) => isRunning(process.pid));

async function expectAllGone(processes: ProcessInfo[]): Promise<void> {
  await waitFor(async () => gone(processes).length === 0, {
    timeoutMs: STOP_BOUND_MS,
    what: 'every process to exit',
  }).catch(() => undefined);
  expect(gone(processes)).toEqual([]);
}

const appsOf = (processes: ProcessInfo[]) =>
  processes.filter((process) => /(services\/\w+|gateway)\/dist\/main\.js/.test(process.command));

describe('npm start (scripts/start.mjs and its supervisor)', () => {
  describe('with an embedded PostgreSQL and nats-server', () => {
    let likeness: LikenessProcess | undefined;

    beforeAll(async () => {
      likeness = await startLikeness({ embedded: true });
    }, 240_000);

    afterAll(async () => {
      await likeness?.cleanup();
    });

    it('should restart a service killed with SIGKILL after a delay, and say so', async () => {
      const billingOf = () =>
        descendantsOf(likeness!.pid).find((process) => process.command.includes('services/billing/dist/main.js'));
      const killed = billingOf()!;
      process.kill(killed.pid, 'SIGKILL');

      await waitFor(async () => likeness!.output().includes('[billing] exited unexpectedly'), {
        what: 'the exit reported',
      });
      expect(likeness!.output()).toContain('[billing] exited unexpectedly (SIGKILL); restarting in 1 s (restart 1)');
      const restarted = await waitFor(async () => billingOf(), { timeoutMs: 10_000, what: 'billing started again' });
      expect(restarted.pid).not.toBe(killed.pid);
      // Ready again: the gateway's /readyz pings every service, billing included.
      await waitFor(async () => isReady(likeness!.url), { timeoutMs: 60_000, what: 'ready again' });
    });

    it('should stop the apps, then NATS, then PostgreSQL, leave no process behind and exit 0 on SIGTERM', async () => {
      const started = descendantsOf(likeness!.pid);
      expect(appsOf(started)).toHaveLength(8); // six services, a generation worker and the gateway
      expect(started.some((process) => /\/postgres -D /.test(process.command))).toBe(true);
      expect(started.some((process) => /nats-server/.test(process.command))).toBe(true);

      process.kill(likeness!.pid, 'SIGTERM');
      expect(await likeness!.exited).toEqual({ code: 0, signal: null });
      await expectAllGone(started);
      const said = likeness!
        .output()
        .split('\n')
        .filter((line) => line.includes('[likeness]'));
      expect(said.slice(-5).map((line) => line.replace(/^.*\[likeness\]\S* /, ''))).toEqual([
        'Stopping (SIGTERM)...',
        'Stopping the apps...',
        'Stopping nats-server...',
        'Stopping PostgreSQL...',
        'Stopped.',
      ]);
      // Every app stopped by itself within its grace period, with exit code 0.
      expect(likeness!.output()).not.toMatch(/did not stop within|stopped with/);
    });
  });

  describe('with the PostgreSQL and NATS it is given', () => {
    let likeness: LikenessProcess | undefined;

    afterEach(async () => {
      await likeness?.cleanup();
      likeness = undefined;
    });

    it('should stop every process it started and exit 0 on SIGHUP (a closed terminal)', async () => {
      likeness = await startLikeness();
      const started = descendantsOf(likeness.pid);
      expect(appsOf(started)).toHaveLength(8);

      process.kill(likeness.pid, 'SIGHUP');
      expect(await likeness.exited).toEqual({ code: 0, signal: null });
      await expectAllGone(started);
      expect(likeness.output()).toContain('Stopping (SIGHUP)...');
      expect(likeness.output()).not.toMatch(/did not stop within|stopped with/);
    }, 240_000);

    it('should stop everything when npm start itself is killed with SIGKILL', async () => {
      likeness = await startLikeness();
      const started = descendantsOf(likeness.pid);
      expect(appsOf(started)).toHaveLength(8);

      process.kill(likeness.pid, 'SIGKILL');
      await likeness.exited;
      await expectAllGone(started);
      expect(likeness.output()).toContain('npm start is gone; stopping...');
    }, 240_000);

    it('should stop everything the supervisor started when the supervisor is killed with SIGKILL, and exit 1', async () => {
      likeness = await startLikeness();
      const started = descendantsOf(likeness.pid);
      expect(appsOf(started)).toHaveLength(8);
      const supervisor = started.find((process) => process.command.includes('libs/devstack/dist/main.js'))!;

      process.kill(supervisor.pid, 'SIGKILL');
      expect(await likeness.exited).toEqual({ code: 1, signal: null });
      await expectAllGone(started);
      expect(likeness.output()).toContain('The supervisor was killed (SIGKILL); stopping what it left running...');
    }, 240_000);
  });
});
