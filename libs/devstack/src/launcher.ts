// What `npm start` runs once everything is built: the supervisor (./main.ts) in a process group of
// its own. A terminal's Ctrl-C or hang-up then reaches only this process, which hands the signal
// on, so the supervisor stops the apps before NATS and PostgreSQL instead of everything getting it
// at once. If the supervisor dies without stopping what it started (SIGKILL, the OOM killer), its
// process group is stopped from here; if this process dies, the supervisor's IPC channel closes
// and it stops everything itself.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROOT } from './stack.js';
import { STOP_SIGNALS, say } from './supervisor.js';

const SUPERVISOR = fileURLToPath(new URL('./main.js', import.meta.url));

/** Runs the supervisor until it exits; resolves with the exit code for this process. */
export function launchSupervisor(args: string[] = []): Promise<number> {
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const supervisor = spawn(process.execPath, [SUPERVISOR, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  for (const signal of STOP_SIGNALS) process.on(signal, () => supervisor.kill(signal));
  return new Promise((resolve) => {
    supervisor.on('error', (error) => {
      say(`Could not start the supervisor: ${error.message}`);
      resolve(1);
    });
    supervisor.on('exit', (code, signal) => {
      void (async () => {
        const group = supervisor.pid;
        if (group !== undefined && groupAlive(group)) {
          say(
            `The supervisor ${signal ? `was killed (${signal})` : `exited (code ${code})`}; stopping what it left running...`,
          );
          await stopGroup(group);
        }
        resolve(code ?? 1);
      })();
    });
  });
}

/** SIGTERM to every process of the group; SIGKILL to what is left after the grace period. */
async function stopGroup(group: number, graceMs = 15_000): Promise<void> {
  signalGroup(group, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(group)) await new Promise((resolve) => setTimeout(resolve, 100));
  if (groupAlive(group)) signalGroup(group, 'SIGKILL');
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // Gone already.
  }
}

/**
 * Whether a process of the group still runs. On Linux /proc tells, and a zombie (dead, waiting to
 * be reaped by whoever adopted it) does not count; elsewhere, whether the group can be signalled.
 */
function groupAlive(group: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  }
  return entries.some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === group && state !== 'Z';
    } catch {
      return false;
    }
  });
}
