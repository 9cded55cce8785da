import { z } from 'zod';
import { defineRoute } from '../http.js';

export const openApiDocumentRoute = defineRoute({
  method: 'GET',
  path: '/api/docs',
  summary: 'This OpenAPI 3.1 document of the public API, generated from the contracts',
  tag: 'docs',
  auth: false,
  params: undefined,
  body: undefined,
  response: z.record(z.string(), z.unknown()).describe('the OpenAPI document'),
  errors: [],
});

/** Where people write for help when the operator has not set SUPPORT_EMAIL (the mails use it too). */
export const DEFAULT_SUPPORT_EMAIL = 'support@likeness.local';

/** SPEC §2's footer: the kinds of social account it links to (a microblog, photo sharing, a code host). */
export const SOCIAL_LINK_KINDS = ['microblog', 'photos', 'code'] as const;
export type SocialLinkKind = (typeof SOCIAL_LINK_KINDS)[number];

/** Settings the SPA reads at run time, so one deployment's values need no rebuild of the SPA. */
export const appConfigSchema = z.object({
  /** SUPPORT_EMAIL: "Contact Support" on the profile's Help tab writes to it. */
  supportEmail: z.email(),
  /** The deployment's own social accounts (SOCIAL_*_URL), in SPEC's order; the footer shows only these. */
  socialLinks: z.array(z.object({ kind: z.enum(SOCIAL_LINK_KINDS), url: z.url({ protocol: /^https?$/ }) })).default([]),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

export const appConfigRoute = defineRoute({
  method: 'GET',
  path: '/api/config',
  summary: "The SPA's public run-time settings (the support address, the footer's social links)",
  tag: 'config',
  auth: false,
  params: undefined,
  body: undefined,
  response: appConfigSchema,
  errors: [],
});
