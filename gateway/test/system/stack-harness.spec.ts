import { spawnSync } from 'node:child_process';
import { crashReport } from './stack-harness.js';

/** What a Node process writes to its log when `script` ends it. */
function logOfNodeRunning(script: string): string {
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return `{"level":30,"msg":"started"}\n${result.stdout}${result.stderr}`;
}

const calm = '{"level":30,"msg":"started"}\n{"level":40,"msg":"refused a request the HTTP parser could not read"}\n';

describe(crashReport.name, () => {
  it('should find nothing when every app ran and stopped as asked', () => {
    expect(crashReport([], ['auth', 'media'], () => calm)).toBeUndefined();
  });

  it('should not take a log line quoting the words of a crash (a user typed them) for one', () => {
    const quoting = `${calm}{"level":40,"msg":"no user Node.js v24.0.0 Unhandled 'error' event ERR_UNHANDLED_REJECTION"}\n`;
    expect(crashReport([], ['auth'], () => quoting)).toBeUndefined();
  });

  it('should name an app that exited unexpectedly, with the end of its log', () => {
    const report = crashReport([{ app: 'media', code: null, signal: 'SIGKILL' }], ['auth', 'media'], (app) =>
      app === 'media' ? `${calm}{"msg":"the last words of media"}\n` : calm,
    );
    expect(report).toMatch(/^media exited unexpectedly \(SIGKILL\)$/m);
    expect(report).toContain("--- the end of media's log ---\n");
    expect(report).toContain('the last words of media');
    expect(report).not.toContain('auth');
  });

  it.each([
    ['an uncaught exception', "setTimeout(() => { throw new Error('boom'); })"],
    ['an unhandled rejection', "Promise.reject(new Error('boom'))"],
    ['an unhandled rejection of a non-error', 'Promise.reject(42)'],
    ["an unhandled 'error' event", "new (require('node:events'))().emit('error', new Error('boom'))"],
  ])('should name an app whose log shows %s as Node reports it', (_what, script) => {
    const report = crashReport([], ['auth', 'media'], (app) => (app === 'auth' ? logOfNodeRunning(script) : calm));
    expect(report).toMatch(/^auth logged a crash/m);
    expect(report).not.toMatch(/^media/m);
  });
});
