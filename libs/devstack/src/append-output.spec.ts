import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { appendOutput } from './stack.js';

describe('appendOutput', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'likeness-append-output-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('should keep the lines a child writes to stderr after its stdout has closed', async () => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        "process.stdout.write('out\\n'); require('fs').closeSync(1); setTimeout(() => process.stderr.write('late error\\n'), 100);",
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const errors: Error[] = [];
    const file = appendOutput(child, join(dir, 'app.log'), (error) => errors.push(error));

    await once(file, 'finish');

    expect(errors).toEqual([]);
    expect(readFileSync(join(dir, 'app.log'), 'utf8')).toBe('out\nlate error\n');
  });
});
