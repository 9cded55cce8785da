import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi.js';

/** Checked in at docs/openapi.json; a test fails when it drifts from the contracts. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
