#!/usr/bin/env node
// Writes the NATS users and their subject permissions, derived from libs/contracts/src/system/bus-access.ts:
//   deploy/nats/auth.conf         nats-server's `authorization` block (docker compose mounts it)
//   deploy/nats/values-auth.yaml  the same users for the official NATS Helm chart
// Run it (`npm run nats:config`) after changing which RPCs, events, jobs or buckets an app uses;
// libs/nest-kit/src/messaging/nats-permissions.spec.ts fails while the committed files differ.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { renderNatsHelmValues, renderNatsServerAuthorization } =
  await import('../libs/nest-kit/dist/messaging/nats-permissions.js');
for (const [file, text] of [
  ['deploy/nats/auth.conf', renderNatsServerAuthorization()],
  ['deploy/nats/values-auth.yaml', renderNatsHelmValues()],
]) {
  writeFileSync(join(root, file), text);
  console.log(`Wrote ${file}`);
}
