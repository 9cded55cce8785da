import { waitFor } from '@likeness/testing';
import { apiClient } from './api-client.js';
import { type RunningStack, startTestStack } from './stack-harness.js';

// A service run as several replicas (libs/devstack's `replicas`, as `npm run soak` runs billing)
// shares one queue group: when one replica dies, the others answer its requests.
describe('a service run as two replicas', () => {
  let stack: RunningStack;

  beforeAll(async () => {
    stack = await startTestStack({}, { replicas: { billing: 2 } });
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  it('should run the second replica as a process of its own', () => {
    expect(stack.children.get('billing-2')?.pid).toEqual(expect.any(Number));
    expect(stack.children.get('billing-2')?.pid).not.toBe(stack.children.get('billing')?.pid);
  });

  it('should keep selling credits while the first billing replica is down', async () => {
    const api = apiClient(stack.url);
    const buyer = await api.register('replica_buyer');
    await stack.crash('billing');

    await api.buyCredits(buyer, 'starter');

    // The welcome credits (5) and the Starter Pack (50), granted by the replica left.
    expect(
      await waitFor(async () => ((await api.credits(buyer)) === 55 ? 55 : undefined), { what: 'the credits' }),
    ).toBe(55);
  });
});
