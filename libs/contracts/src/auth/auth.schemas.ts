import { z } from 'zod';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
/** The user with this id is the administrator (SPEC.md §6, DESIGN.md §5). */
export const ADMIN_USER_ID = 1;
/** Until billing keeps balances, a new account shows the welcome credits (SPEC.md §9). */
export const WELCOME_CREDITS = 5;

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;

export const usernameSchema = z
  .string({ error: 'Username is required' })
  .min(USERNAME_MIN, { error: `Username must be at least ${USERNAME_MIN} characters` })
  .max(USERNAME_MAX, { error: `Username must be at most ${USERNAME_MAX} characters` })
  .regex(/^[A-Za-z0-9_]+$/, { error: 'Username can only contain letters, numbers, and underscores' });

export const emailSchema = z
  .string({ error: 'Please enter a valid email' })
  .trim()
  .max(254, { error: 'Please enter a valid email' })
  .pipe(z.email({ error: 'Please enter a valid email' }));

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` });

/** POST /api/register: what the SPA sends (the confirmation stays in the browser). */
export const registerRequestSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** The Register tab's form: the request plus a confirmation that must match. */
export const registerFormSchema = registerRequestSchema
  .extend({ confirmPassword: z.string({ error: 'Passwords do not match' }) })
  .refine((form) => form.password === form.confirmPassword, {
    error: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

/** POST /api/login: `username` holds a username or an e-mail address. */
export const loginRequestSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, { error: 'Username is required' }).max(254),
  password: z
    .string({ error: 'Password must be at least 6 characters' })
    .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
    .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` }),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** A user as the auth service knows one. */
export const userSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.iso.datetime(),
});
export type User = z.infer<typeof userSchema>;

/** The signed-in user as the SPA sees it (GET /api/user, GET /api/auth/me, login, register). */
export const currentUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  credits: z.number().int().nonnegative(),
  role: roleSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const logoutResponseSchema = z.object({ success: z.literal(true) });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** What the access token carries. */
export const accessClaimsSchema = z.object({
  sub: z.string(),
  username: z.string(),
  role: roleSchema,
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;

/** A session handed to the gateway, which turns it into cookies. */
export const sessionSchema = z.object({
  user: userSchema,
  accessToken: z.string(),
  accessTokenExpiresAt: z.iso.datetime(),
  refreshToken: z.string(),
  refreshTokenExpiresAt: z.iso.datetime(),
});
export type Session = z.infer<typeof sessionSchema>;
