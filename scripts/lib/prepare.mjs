// What `npm start`, `npm run dev` and `npm test` do first on any checkout: install the
// dependencies when node_modules is missing or older than the lock file, then build (Nx skips
// what has not changed). Exits the process when either step fails.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** @param {(message: string) => void} say */
export function installAndBuild(say) {
  const step = (command, args) => {
    const status = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
    if (status !== 0) {
      say(`\`${command} ${args.join(' ')}\` failed.`);
      process.exit(status);
    }
  };
  const marker = join(ROOT, 'node_modules/.package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(join(ROOT, 'package-lock.json')).mtimeMs) {
    say('Installing dependencies...');
    step('npm', ['ci', '--no-audit', '--no-fund']);
  }
  say('Building...');
  step('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static']);
}
