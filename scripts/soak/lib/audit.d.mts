// Types of ./audit.mjs for the TypeScript that imports it (its test).

export interface ConsumerState {
  durable: string;
  filterSubject: string;
  pending: number;
  ackPending: number;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  checked: number;
  offending: string[];
  source: string;
}

export interface AuditSources {
  query: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  listObjects: (prefix: string) => AsyncIterable<{ key: string }>;
  consumers?: () => Promise<ConsumerState[]>;
  getBalance?: (userId: number) => Promise<{ balance: number; held: number }>;
  deletedAvatarIds?: Set<number>;
}

export const SERVICE_SCHEMAS: string[];
export function inFlight(sources: Pick<AuditSources, 'query' | 'consumers'>): Promise<string[]>;
export function settle(
  sources: Pick<AuditSources, 'query' | 'consumers'>,
  options?: { timeoutMs?: number; log?: (line: string) => void },
): Promise<string[]>;
export function auditBooks(sources: AuditSources): Promise<CheckResult[]>;
export function formatAudit(results: CheckResult[], options?: { maxOffending?: number }): string[];
