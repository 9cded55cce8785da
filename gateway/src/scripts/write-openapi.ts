import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApiDocument } from '../docs/openapi-file.js';

writeFileSync(OPENAPI_FILE, renderOpenApiDocument());
process.stdout.write(`Wrote ${OPENAPI_FILE}\n`);
