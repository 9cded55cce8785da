import { creditHistoryQuerySchema } from './billing.schemas.js';

describe('creditHistoryQuerySchema', () => {
  it('should default to the first page of 20 and read numbers from the query string', () => {
    expect(creditHistoryQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20 });
    expect(creditHistoryQuerySchema.parse({ page: '3', pageSize: '50' })).toEqual({ page: 3, pageSize: 50 });
  });

  it.each([{ page: '0' }, { page: 'abc' }, { page: '1.5' }, { pageSize: '101' }, { pageSize: '-1' }])(
    'should refuse %p',
    (query) => {
      expect(creditHistoryQuerySchema.safeParse(query).success).toBe(false);
    },
  );
});
