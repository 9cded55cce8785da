import { createServer } from 'node:net';
import { createTestDatabase } from '@likeness/testing';
import { startTestStack } from './stack-harness.js';

describe('a stack that cannot start', () => {
  it("should fail at once with the end of the dead app's output, even when its port's holder never answers", async () => {
    // Holds the gateway's port and accepts connections without ever answering them.
    const holder = createServer(() => undefined);
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const database = await createTestDatabase('startup');
    try {
      const port = typeof address === 'object' && address ? address.port : 0;
      await expect(startTestStack({}, { port, database })).rejects.toThrow(
        /gateway exited during start-up\n--- the end of gateway's output ---\n[\s\S]*EADDRINUSE/,
      );
    } finally {
      holder.close();
      await database.drop();
    }
  });
});
