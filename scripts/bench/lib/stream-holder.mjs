// Holds HOLDER_STREAMS idle event streams of one user open against the gateway on HOLDER_PORT
// (bench:events, part 2), in a process of its own. Tells its parent `{ kind: 'opened', openedInMs }`
// once all are open and `{ kind: 'heartbeats' }` once every one has had a heartbeat; holds them
// until it is stopped or its parent goes.
import { openStream } from './event-stream.mjs';

const port = Number(process.env.HOLDER_PORT);
const cookie = process.env.HOLDER_COOKIE ?? '';
const count = Number(process.env.HOLDER_STREAMS ?? 2000);

const streams = [];
process.on('disconnect', () => {
  for (const stream of streams) stream.close();
  process.exit(0);
});
const opening = performance.now();
for (let index = 0; index < count; index += 50) {
  const batch = Math.min(50, count - index);
  streams.push(...(await Promise.all(Array.from({ length: batch }, () => openStream(port, cookie)))));
}
process.send?.({ kind: 'opened', openedInMs: performance.now() - opening });
while (streams.some((stream) => stream.heartbeats() === 0)) {
  await new Promise((resolve) => setTimeout(resolve, 500));
}
process.send?.({ kind: 'heartbeats' });
