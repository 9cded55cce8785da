#!/usr/bin/env node
// `npm run audit`: checks the books of a running (or stopped) Likeness across its services (see
// lib/audit.mjs for what each check reads). Settings from the environment, as the apps take them:
//   DATABASE_URL (required)  the database every service keeps its schema in
//   NATS_URL, NATS_NAMESPACE  for JetStream's consumers and billing's RPC (skipped when unset)
//   DATA_DIR or STORAGE_DRIVER / S3_*  the object storage, as media has it
// Options: --deleted-avatars <file>  a JSON array of avatar ids their owners deleted (the soak
// writes one); --settle-seconds <n>  how long to wait for in-flight work first (default 180).
// Prints each check with PASS or FAIL and the offending ids; exits 1 on any failure.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { storageConfigShape, storageFromConfig } from '@likeness/storage';
import { z } from 'zod';
import { runAudit } from './lib/audit-run.mjs';

const { values } = parseArgs({
  options: {
    'deleted-avatars': { type: 'string' },
    'settle-seconds': { type: 'string', default: '180' },
  },
});

const settings = z
  .object({
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' }),
    NATS_URL: z.string().optional(),
    NATS_NAMESPACE: z.string().default(''),
    ...storageConfigShape,
  })
  .safeParse(process.env);
if (!settings.success) {
  for (const issue of settings.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
  process.exit(2);
}
const settleSeconds = Number(values['settle-seconds']);
if (!Number.isFinite(settleSeconds) || settleSeconds < 0) {
  console.error('--settle-seconds must be a number of seconds');
  process.exit(2);
}

const deletedAvatarIds = values['deleted-avatars']
  ? new Set(JSON.parse(readFileSync(values['deleted-avatars'], 'utf8')))
  : undefined;
if (!settings.data.NATS_URL) console.log('NATS_URL is unset: JetStream consumers and billing RPCs are not checked.');
if (!deletedAvatarIds) console.log('No --deleted-avatars: an avatar missing from a completed job counts as lost.');

const audit = await runAudit({
  databaseUrl: settings.data.DATABASE_URL,
  natsUrl: settings.data.NATS_URL,
  namespace: settings.data.NATS_NAMESPACE,
  storage: storageFromConfig(settings.data),
  deletedAvatarIds,
  settleMs: settleSeconds * 1000,
  log: (line) => console.log(line),
});
for (const line of audit.lines) console.log(line);
console.log(audit.ok ? '\nThe books balance.' : '\nThe audit found problems (above).');
process.exit(audit.ok ? 0 : 1);
