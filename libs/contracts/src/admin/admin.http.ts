import { defineRoute } from '../http.js';
import { messageResponseSchema } from '../auth/auth.schemas.js';
import {
  adminChangePasswordRequestSchema,
  adminGenerationJobsPageSchema,
  adminGenerationJobsQuerySchema,
  adminPaymentsPageSchema,
  adminPaymentsQuerySchema,
  adminSummarySchema,
  adminTimeseriesQuerySchema,
  adminTimeseriesSchema,
  adminUserDetailSchema,
  adminUserParamsSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  creditAdjustmentRequestSchema,
  creditAdjustmentResponseSchema,
} from './admin.schemas.js';

/** Every admin route answers 401 to a visitor and 403 (ADMIN_ONLY_MESSAGE) to a signed-in non-admin. */
const adminErrors = ['AUTH.UNAUTHENTICATED', 'AUTH.FORBIDDEN'] as const;

export const adminUsersRoute = defineRoute({
  method: 'GET',
  path: '/api/admin/users',
  summary: 'Administrator: the users, newest first, paged by cursor; search by part of a username or e-mail, or an id',
  tag: 'admin',
  auth: true,
  params: undefined,
  body: undefined,
  query: adminUsersQuerySchema,
  response: adminUsersPageSchema,
  errors: [...adminErrors],
});

export const adminUserRoute = defineRoute({
  method: 'GET',
  path: '/api/admin/users/{id}',
  summary: "Administrator: one user's balance, payments, models and recent jobs with their failure reasons",
  tag: 'admin',
  auth: true,
  params: adminUserParamsSchema,
  body: undefined,
  response: adminUserDetailSchema,
  errors: [...adminErrors, 'COMMON.NOT_FOUND'],
});

export const adminCreditAdjustmentRoute = defineRoute({
  method: 'POST',
  path: '/api/admin/users/{id}/credits',
  summary:
    'Administrator: grant or deduct credits with a reason, recorded once in the ledger as an adjustment (the user sees it in their history)',
  tag: 'admin',
  auth: true,
  params: adminUserParamsSchema,
  body: creditAdjustmentRequestSchema,
  response: creditAdjustmentResponseSchema,
  errors: [...adminErrors, 'COMMON.NOT_FOUND', 'BILLING.INSUFFICIENT_CREDITS'],
});

export const adminPaymentsRoute = defineRoute({
  method: 'GET',
  path: '/api/admin/payments',
  summary:
    'Administrator: payments, newest first, paged by cursor; filter by status or user, search by user or payment id',
  tag: 'admin',
  auth: true,
  params: undefined,
  body: undefined,
  query: adminPaymentsQuerySchema,
  response: adminPaymentsPageSchema,
  errors: [...adminErrors],
});

export const adminGenerationJobsRoute = defineRoute({
  method: 'GET',
  path: '/api/admin/generation-jobs',
  summary:
    'Administrator: generation jobs, newest first, paged by cursor; filter by status or user, search by user or job id',
  tag: 'admin',
  auth: true,
  params: undefined,
  body: undefined,
  query: adminGenerationJobsQuerySchema,
  response: adminGenerationJobsPageSchema,
  errors: [...adminErrors],
});

export const adminSummaryRoute = defineRoute({
  method: 'GET',
  path: '/api/admin/summary',
  summary: 'Administrator: users, revenue, generations and trainings with failure rates, credits outstanding',
  tag: 'admin',
  auth: true,
  params: undefined,
  body: undefined,
  response: adminSummarySchema,
  errors: [...adminErrors],
});

export const adminTimeseriesRoute = defineRoute({
  method: 'GET',
  path: '/api/admin/timeseries',
  summary: 'Administrator: sign-ups, revenue, generations and failed jobs per UTC day over the last 30 or 90 days',
  tag: 'admin',
  auth: true,
  params: undefined,
  body: undefined,
  query: adminTimeseriesQuerySchema,
  response: adminTimeseriesSchema,
  errors: [...adminErrors],
});

export const adminChangePasswordRoute = defineRoute({
  method: 'POST',
  path: '/api/admin/change-password',
  summary:
    "Administrator: change the administrator's own password under the stricter rules (12+ characters, mixed, no weak patterns)",
  tag: 'admin',
  auth: true,
  params: undefined,
  body: adminChangePasswordRequestSchema,
  response: messageResponseSchema,
  errors: [...adminErrors, 'AUTH.WRONG_PASSWORD', 'COMMON.RATE_LIMITED'],
});
