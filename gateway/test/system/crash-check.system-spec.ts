import type { ChildProcess } from 'node:child_process';
import { type RunningStack, startTestStack } from './stack-harness.js';

const exitOf = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

/** Every system test's stack fails its suite when one of its apps ends without being asked to. */
describe("the system tests' crash check", () => {
  let stack: RunningStack;
  let shutDown = false;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    if (!shutDown) await stack?.shutdown();
  });

  it('should not count the exits a test asks for', async () => {
    await stack.crash('training');
    const worker = stack.children.get('generation-worker-1')!;
    const exited = exitOf(worker);
    stack.expectExit('generation-worker-1');
    worker.kill('SIGTERM');
    await exited;

    expect(stack.crashReport()).toBeUndefined();
  });

  it('should fail the shutdown when an app exits on its own, naming it', async () => {
    const reporting = stack.children.get('reporting')!;
    const exited = exitOf(reporting);
    process.kill(reporting.pid!, 'SIGKILL');
    await exited;

    expect(stack.crashReport()).toMatch(/^reporting exited unexpectedly \(SIGKILL\)$/m);
    shutDown = true;
    await expect(stack.shutdown()).rejects.toThrow(/^reporting exited unexpectedly \(SIGKILL\)$/m);
  });
});
