import { z } from 'zod';
import { rowIdSchema } from '../ids.js';
import { defineRpc } from '../rpc.js';
import {
  adminGenerationJobsPageSchema,
  adminGenerationJobsQuerySchema,
  adminPaymentsPageSchema,
  adminPaymentsQuerySchema,
  adminSummarySchema,
  adminTimeseriesQuerySchema,
  adminTimeseriesSchema,
  adminUserDetailSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  creditAdjustmentRequestSchema,
  creditAdjustmentResponseSchema,
} from './admin.schemas.js';

/*
 * Every RPC here requires the caller's `admin` role in the envelope (`RpcCallOptions.caller`):
 * the answering service refuses it otherwise, whatever the gateway checked.
 */

export const listUsers = defineRpc({
  subject: 'reporting.admin.users.list',
  request: adminUsersQuerySchema,
  response: adminUsersPageSchema,
  requiredRole: 'admin',
});

/** COMMON.NOT_FOUND for a user the read models do not know (never registered, or deleted). */
export const getUser = defineRpc({
  subject: 'reporting.admin.users.get',
  request: z.object({ userId: rowIdSchema }),
  response: adminUserDetailSchema,
  requiredRole: 'admin',
});

export const listPayments = defineRpc({
  subject: 'reporting.admin.payments.list',
  request: adminPaymentsQuerySchema,
  response: adminPaymentsPageSchema,
  requiredRole: 'admin',
});

export const listGenerationJobs = defineRpc({
  subject: 'reporting.admin.generation-jobs.list',
  request: adminGenerationJobsQuerySchema,
  response: adminGenerationJobsPageSchema,
  requiredRole: 'admin',
});

export const getSummary = defineRpc({
  subject: 'reporting.admin.summary.get',
  request: z.object({}),
  response: adminSummarySchema,
  requiredRole: 'admin',
});

export const getTimeseries = defineRpc({
  subject: 'reporting.admin.timeseries.get',
  request: adminTimeseriesQuerySchema,
  response: adminTimeseriesSchema,
  requiredRole: 'admin',
});

/**
 * Billing: grants or deducts credits as a ledger `adjustment` naming the admin (the envelope's
 * caller) and the reason; the same `requestId` counts once. COMMON.NOT_FOUND for an account
 * that does not exist or was closed; BILLING.INSUFFICIENT_CREDITS for a deduction past what
 * the user can spend.
 */
export const adjustCredits = defineRpc({
  subject: 'billing.admin.credits.adjust',
  request: creditAdjustmentRequestSchema.extend({ userId: rowIdSchema }),
  response: creditAdjustmentResponseSchema,
  requiredRole: 'admin',
});
