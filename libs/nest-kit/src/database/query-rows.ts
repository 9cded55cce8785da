import type { EntityManager } from 'typeorm';

/**
 * Runs SQL and returns its rows. TypeORM answers UPDATE/DELETE ... RETURNING with
 * `[rows, affectedCount]` and everything else with the rows: this reads both.
 */
export async function queryRows<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const result: unknown = await manager.query(sql, parameters);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
