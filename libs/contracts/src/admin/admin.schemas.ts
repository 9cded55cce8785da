import { z } from 'zod';
import { PASSWORD_MAX, changePasswordFields, roleSchema } from '../auth/auth.schemas.js';
import { generationJobStatusSchema } from '../generation/generation.schemas.js';
import { MAX_STORED_INTEGER } from '../ids.js';
import { modelStatusSchema } from '../training/training.schemas.js';

/** SPEC §2: what a signed-in user who is not the administrator sees on /admin, and every admin call answers. */
export const ADMIN_ONLY_MESSAGE = "You don't have permission to access the admin area.";

export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_SEARCH_MAX_LENGTH = 100;
/** Cursors are opaque base64url strings the server wrote; anything longer is not one. */
export const ADMIN_CURSOR_MAX_LENGTH = 200;

const limitMessage = `limit must be a whole number from 1 to ${ADMIN_MAX_PAGE_SIZE}`;
const userIdMessage = 'userId must be a user id (a whole number from 1)';

/**
 * The query every admin list takes: `limit` rows after `cursor` (the `nextCursor` of the page
 * before), newest or oldest first, optionally narrowed by a search text. A cursor is only valid
 * for the same sort and search it was issued with.
 */
export const adminListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: limitMessage })
    .int({ error: limitMessage })
    .min(1, { error: limitMessage })
    .max(ADMIN_MAX_PAGE_SIZE, { error: limitMessage })
    .default(ADMIN_PAGE_SIZE),
  cursor: z
    .string({ error: 'That page link is not valid any more. Start again from the first page.' })
    .max(ADMIN_CURSOR_MAX_LENGTH, { error: 'That page link is not valid any more. Start again from the first page.' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'That page link is not valid any more. Start again from the first page.' })
    .optional(),
  /** Users: part of a username or e-mail, or a user id. Payments and jobs: a user id, or a payment/job id. */
  q: z
    .string({ error: 'Search text must be text' })
    .trim()
    .max(ADMIN_SEARCH_MAX_LENGTH, { error: `Search text must be at most ${ADMIN_SEARCH_MAX_LENGTH} characters` })
    .optional()
    .transform((value) => (value ? value : undefined)),
  sort: z.enum(['newest', 'oldest'], { error: 'sort must be newest or oldest' }).default('newest'),
});
export type AdminListQuery = z.infer<typeof adminListQuerySchema>;

const filterUserId = z.coerce
  .number({ error: userIdMessage })
  .int({ error: userIdMessage })
  .min(1, { error: userIdMessage })
  .max(MAX_STORED_INTEGER, { error: userIdMessage })
  .optional();

export const adminPaymentStatusSchema = z.enum(['succeeded', 'refunded', 'disputed']);
export type AdminPaymentStatus = z.infer<typeof adminPaymentStatusSchema>;
export const adminJobStatusSchema = generationJobStatusSchema;
export type AdminJobStatus = z.infer<typeof adminJobStatusSchema>;

export const adminUsersQuerySchema = adminListQuerySchema;
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;
export const adminPaymentsQuerySchema = adminListQuerySchema.extend({
  status: z
    .enum(adminPaymentStatusSchema.options, { error: 'status must be succeeded, refunded or disputed' })
    .optional(),
  userId: filterUserId,
});
export type AdminPaymentsQuery = z.infer<typeof adminPaymentsQuerySchema>;
export const adminGenerationJobsQuerySchema = adminListQuerySchema.extend({
  status: z.enum(adminJobStatusSchema.options, { error: 'status must be pending, completed or failed' }).optional(),
  userId: filterUserId,
});
export type AdminGenerationJobsQuery = z.infer<typeof adminGenerationJobsQuerySchema>;

/** SPEC §7: id, username, email, credits, createdAt (credits: what the user can spend now). */
export const adminUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  credits: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** SPEC §7: id, userId, amount (cents), credits, status, createdAt. */
export const adminPaymentSchema = z.object({
  id: z.string(),
  userId: z.number().int().positive(),
  /** Cents; the dashboard shows dollars. */
  amount: z.number().int().nonnegative(),
  credits: z.number().int().nonnegative(),
  status: adminPaymentStatusSchema,
  /** Cents refunded or disputed so far. */
  refundedAmount: z.number().int().nonnegative(),
  packageId: z.string(),
  createdAt: z.iso.datetime(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

/** SPEC §7: id, userId, promptText, status, createdAt; and what an operator needs to help. */
export const adminGenerationJobSchema = z.object({
  id: z.string(),
  userId: z.number().int().positive(),
  promptText: z.string(),
  status: adminJobStatusSchema,
  numOutputs: z.number().int().positive(),
  failureReason: z.string().nullable(),
  /** From request to completion or failure. */
  durationMs: z.number().int().nonnegative().nullable(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});
export type AdminGenerationJob = z.infer<typeof adminGenerationJobSchema>;

/** One page of an admin list; `nextCursor` is null on the last page. */
export function adminPageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
export const adminUsersPageSchema = adminPageSchema(adminUserSchema);
export const adminPaymentsPageSchema = adminPageSchema(adminPaymentSchema);
export const adminGenerationJobsPageSchema = adminPageSchema(adminGenerationJobSchema);
export type AdminPage<T> = { items: T[]; nextCursor: string | null };

const rateSchema = z.number().min(0).max(1);

/** GET /api/admin/summary: SPEC's three cards, and what an operator watches beside them. */
export const adminSummarySchema = z.object({
  totalUsers: z.number().int().nonnegative(),
  /** Dollars (the sum of succeeded payments' cents, less refunds, divided by 100). */
  revenue: z.number(),
  revenueCents: z.number().int(),
  totalPayments: z.number().int().nonnegative(),
  totalGenerations: z.number().int().nonnegative(),
  generations: z.object({
    completed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    inProgress: z.number().int().nonnegative(),
    /** Failed over finished (0 when none finished). */
    failureRate: rateSchema,
  }),
  trainings: z.object({
    total: z.number().int().nonnegative(),
    completed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    inProgress: z.number().int().nonnegative(),
    failureRate: rateSchema,
  }),
  /** Credits users hold and have not spent (balances, held credits included). */
  creditsOutstanding: z.number().int(),
  /** When the newest event in the read models happened (null before any). */
  lastEventAt: z.iso.datetime().nullable(),
});
export type AdminSummary = z.infer<typeof adminSummarySchema>;

export const ADMIN_TIMESERIES_DAYS = [30, 90] as const;
export const adminTimeseriesQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'days must be 30 or 90' })
    .int({ error: 'days must be 30 or 90' })
    .min(30, { error: 'days must be 30 or 90' })
    .max(90, { error: 'days must be 30 or 90' })
    .refine((days) => days === 30 || days === 90, { error: 'days must be 30 or 90' })
    .default(30),
});
export type AdminTimeseriesQuery = z.infer<typeof adminTimeseriesQuerySchema>;

/** GET /api/admin/timeseries: one point per UTC day, oldest first, today last, days with nothing as zeros. */
export const adminTimeseriesSchema = z.object({
  days: z.array(
    z.object({
      date: z.iso.date(),
      signups: z.number().int().nonnegative(),
      revenueCents: z.number().int(),
      generations: z.number().int().nonnegative(),
      failedJobs: z.number().int().nonnegative(),
    }),
  ),
});
export type AdminTimeseries = z.infer<typeof adminTimeseriesSchema>;

export const adminModelStatusSchema = modelStatusSchema;
/** GET /api/admin/users/{id}: everything an operator needs to help one customer. */
export const adminUserDetailSchema = z.object({
  user: adminUserSchema,
  balance: z.object({
    balance: z.number().int(),
    available: z.number().int(),
  }),
  payments: z.array(adminPaymentSchema),
  models: z.array(
    z.object({
      id: z.number().int().positive(),
      /** Known once the training completed. */
      modelName: z.string().nullable(),
      status: adminModelStatusSchema,
      failureReason: z.string().nullable(),
      createdAt: z.iso.datetime(),
      finishedAt: z.iso.datetime().nullable(),
    }),
  ),
  /** The newest 20 jobs. */
  recentJobs: z.array(adminGenerationJobSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

const userIdPathMessage = 'The user id must be a whole number from 1.';
export const adminUserParamsSchema = z.object({
  id: z.coerce
    .number({ error: userIdPathMessage })
    .int({ error: userIdPathMessage })
    .min(1, { error: userIdPathMessage })
    .max(MAX_STORED_INTEGER, { error: userIdPathMessage }),
});

export const CREDIT_ADJUSTMENT_MAX = 100_000;
const deltaMessage = `Enter a whole number of credits from -${CREDIT_ADJUSTMENT_MAX} to ${CREDIT_ADJUSTMENT_MAX}, not 0`;

/**
 * POST /api/admin/users/{id}/credits: grant (positive) or deduct (negative) credits with a
 * reason the user sees in their history. `requestId` (made once per form submission) makes a
 * retried request count once.
 */
export const creditAdjustmentRequestSchema = z.object({
  delta: z
    .number({ error: deltaMessage })
    .int({ error: deltaMessage })
    .min(-CREDIT_ADJUSTMENT_MAX, { error: deltaMessage })
    .max(CREDIT_ADJUSTMENT_MAX, { error: deltaMessage })
    .refine((delta) => delta !== 0, { error: deltaMessage }),
  reason: z
    .string({ error: 'A reason is required' })
    .trim()
    .min(3, { error: 'Reason must be at least 3 characters' })
    .max(200, { error: 'Reason must be at most 200 characters' }),
  requestId: z.uuid({ error: 'requestId must be a UUID' }),
});
export type CreditAdjustmentRequest = z.infer<typeof creditAdjustmentRequestSchema>;

export const creditAdjustmentResponseSchema = z.object({
  userId: z.number().int().positive(),
  delta: z.number().int(),
  /** The user's balance and spendable credits after the adjustment. */
  balance: z.number().int(),
  available: z.number().int(),
});
export type CreditAdjustmentResponse = z.infer<typeof creditAdjustmentResponseSchema>;

/** BILLING.INSUFFICIENT_CREDITS on a deduction larger than what the user can spend. */
export const ADJUSTMENT_TOO_LARGE_MESSAGE = 'The user does not have that many credits to deduct';

export const ADMIN_PASSWORD_MIN = 12;
export const ADMIN_WEAK_PASSWORD_MESSAGE = 'Password contains common weak patterns';
const ADMIN_MATCH_MESSAGE = "Passwords don't match";

/** SPEC §5's weak patterns: all one character, a repeated pair, password, admin, 123456, qwerty. */
export function isWeakAdminPassword(password: string): boolean {
  const lower = password.toLowerCase();
  return (
    /^(.)\1*$/.test(password) ||
    /^(..)\1+$/.test(password) ||
    ['password', 'admin', '123456', 'qwerty'].some((word) => lower.includes(word))
  );
}

/** POST /api/admin/change-password: SPEC §5's administrator rules. */
export const adminChangePasswordRequestSchema = changePasswordFields
  .extend({
    newPassword: z
      .string({ error: `Password must be at least ${ADMIN_PASSWORD_MIN} characters` })
      .min(ADMIN_PASSWORD_MIN, { error: `Password must be at least ${ADMIN_PASSWORD_MIN} characters` })
      .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` })
      .regex(/[A-Z]/, { error: 'Password must contain at least one uppercase letter' })
      .regex(/[a-z]/, { error: 'Password must contain at least one lowercase letter' })
      .regex(/[0-9]/, { error: 'Password must contain at least one number' })
      .regex(/[^A-Za-z0-9]/, { error: 'Password must contain at least one special character' })
      .refine((password) => !isWeakAdminPassword(password), { error: ADMIN_WEAK_PASSWORD_MESSAGE }),
    confirmPassword: z.string({ error: ADMIN_MATCH_MESSAGE }).max(PASSWORD_MAX, { error: ADMIN_MATCH_MESSAGE }),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    error: ADMIN_MATCH_MESSAGE,
    path: ['confirmPassword'],
  })
  .refine((form) => form.newPassword !== form.currentPassword, {
    error: 'New password must be different from the current password',
    path: ['newPassword'],
  });
export type AdminChangePasswordRequest = z.infer<typeof adminChangePasswordRequestSchema>;
