import { type RpcDefinition, type RpcRequestInput, type RpcResponse, SNAPSHOT_MAX_PAGE } from '@likeness/contracts';
import type { RpcClient } from '@likeness/nest-kit';

/** One call of a snapshot RPC (libs/contracts/src/snapshots.ts). */
export type SnapshotPageCall<T, I> = (request: {
  afterId?: I;
  limit?: number;
}) => Promise<{ items: T[]; nextAfterId: I | null }>;

type SnapshotItem<D extends RpcDefinition> = RpcResponse<D> extends { items: (infer T)[] } ? T : never;
type SnapshotId<D extends RpcDefinition> = RpcResponse<D> extends { nextAfterId: infer I } ? NonNullable<I> : never;

/**
 * Reads a whole snapshot `limit` rows at a time and checks its keyset paging on the way: ids
 * ascend across pages; a full page names its last id as where the next one starts; the last page
 * is short (or empty, after a full one) and names none.
 */
export async function readSnapshot<T, I>(page: SnapshotPageCall<T, I>, idOf: (item: T) => I, limit: number) {
  const items: T[] = [];
  let afterId: I | undefined;
  for (;;) {
    const current = await page({ ...(afterId === undefined ? {} : { afterId }), limit });
    expect(current.items.length).toBeLessThanOrEqual(limit);
    items.push(...current.items);
    if (current.items.length < limit) {
      expect(current.nextAfterId).toBeNull();
      break;
    }
    const last = current.items[current.items.length - 1] as T;
    expect(current.nextAfterId).toEqual(idOf(last));
    afterId = idOf(last);
  }
  const ids = items.map(idOf);
  expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  expect(new Set(ids).size).toBe(ids.length);
  return items;
}

/**
 * What every snapshot RPC must do, on a service holding at least three rows to snapshot: pages of
 * two, pages exactly the size of the whole (a full last page, then an empty one) and the default
 * page all read the same rows; after the last id nothing is left; a limit out of range is refused
 * in plain words. Returns the rows.
 */
export async function expectSnapshotPaging<D extends RpcDefinition>(
  rpc: RpcClient,
  definition: D,
  idOf: (item: SnapshotItem<D>) => SnapshotId<D>,
): Promise<SnapshotItem<D>[]> {
  // A snapshot RPC's request is { afterId?, limit? } and its response a page (contracts' snapshots.ts).
  const call = (request: RpcRequestInput<D>) => rpc.call(definition, request);
  const page = call as unknown as SnapshotPageCall<SnapshotItem<D>, SnapshotId<D>>;
  const items = await readSnapshot(page, idOf, 2);
  expect(items.length).toBeGreaterThan(2);
  await expect(readSnapshot(page, idOf, items.length)).resolves.toEqual(items);
  await expect(page({})).resolves.toEqual({ items, nextAfterId: null });
  const [first, second] = items as [SnapshotItem<D>, SnapshotItem<D>];
  const last = items[items.length - 1] as SnapshotItem<D>;
  await expect(page({ afterId: idOf(last), limit: 5 })).resolves.toEqual({ items: [], nextAfterId: null });
  await expect(page({ afterId: idOf(first), limit: 1 })).resolves.toEqual({
    items: [second],
    nextAfterId: idOf(second),
  });
  for (const limit of [0, SNAPSHOT_MAX_PAGE + 1, 1.5]) {
    await expect(page({ limit })).rejects.toMatchObject({
      code: 'COMMON.VALIDATION_FAILED',
      message: expect.stringContaining(`limit must be a whole number from 1 to ${SNAPSHOT_MAX_PAGE}`),
    });
  }
  return items;
}
