import { type SpawnSyncReturns, spawnSync } from 'node:child_process';

/**
 * Starts an app from its build with only `env` (and PATH), as an operator's environment would,
 * and waits for it to exit: for start-up checks that must refuse a configuration, saying why.
 */
export function runBuiltApp(main: string, env: Record<string, string>): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [main], {
    env: { PATH: process.env['PATH'], ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}
