import { z } from 'zod';

/**
 * The largest integer we store: ids, amounts and counts are PostgreSQL `integer` columns. A
 * larger number names no row of ours, and the database would refuse it in a query (a 500 where
 * the caller deserves a 400 or a 404), so no request may carry one.
 */
export const MAX_STORED_INTEGER = 2_147_483_647;

/** A row id (a user, a selfie, a model...) in a request. */
export const rowIdSchema = z.number().int().positive().max(MAX_STORED_INTEGER);
