// The public pages' hand-written checks of API answers (the `.public` twins) against the
// contracts' schemas the full app parses them with: they accept and refuse alike.
import { appConfigSchema, avatarsPageSchema, creditPackageSchema, currentUserSchema } from '@likeness/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APP_CONFIG_PATH as FULL_APP_CONFIG_PATH } from '@/lib/app-config/get-app-config';
import { checkAppConfig, APP_CONFIG_PATH } from '@/lib/app-config/get-app-config.public';
import { AVATARS_PATH as FULL_AVATARS_PATH } from '@/lib/avatars/get-avatars';
import { AVATARS_PATH, checkAvatarsPage } from '@/lib/avatars/recent-avatars.public';
import { CREDIT_PACKAGES_PATH as FULL_CREDIT_PACKAGES_PATH } from '@/lib/credit-packages/get-credit-packages';
import { checkCreditPackages, CREDIT_PACKAGES_PATH } from '@/lib/credit-packages/get-credit-packages.public';
import { CURRENT_USER_PATH as FULL_CURRENT_USER_PATH } from '@/lib/session/current-user';
import { checkCurrentUser, CURRENT_USER_PATH } from '@/features/auth/auth-provider.public';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';

const pack = {
  id: 'starter',
  name: 'Starter',
  description: 'Try',
  credits: 50,
  price: 5,
  value: 'No bonus',
  popular: false,
};
const user = { id: 2, username: 'alice', email: 'alice@example.com', credits: 5, role: 'user' };

const cases = [
  {
    name: 'the credit packs',
    check: checkCreditPackages,
    schema: z.array(creditPackageSchema),
    good: [[], [pack], [pack, { ...pack, id: 'pro', price: 9.99, popular: true }]],
    bad: [
      null,
      {},
      [{ ...pack, price: '5' }],
      [{ ...pack, credits: 0 }],
      [{ ...pack, credits: 2.5 }],
      [{ ...pack, popular: 1 }],
    ],
  },
  {
    name: 'the signed-in user',
    check: checkCurrentUser,
    schema: currentUserSchema,
    good: [user, { ...user, role: 'admin' }],
    bad: [null, [], { ...user, role: 'root' }, { ...user, username: 7 }, { id: 2, username: 'alice' }],
  },
  {
    name: 'the app config',
    check: checkAppConfig,
    schema: appConfigSchema,
    good: [{ supportEmail: 'help@likeness.example' }],
    bad: [{}, { supportEmail: 'nobody' }, { supportEmail: 'a b@c.d' }, { supportEmail: 4 }],
  },
  {
    name: "a page of the user's avatars",
    check: checkAvatarsPage,
    schema: avatarsPageSchema,
    good: [
      avatarsPage([]),
      avatarsPage([makeAvatar(1), makeAvatar(2, { createdAt: null, customModelId: null })], { nextCursor: 'n' }),
    ],
    bad: [
      { items: [], nextCursor: null },
      { items: {}, nextCursor: null, total: 0 },
      avatarsPage([{ ...makeAvatar(1), thumbnailUrl: null } as never]),
      avatarsPage([{ ...makeAvatar(1), favourite: 'yes' } as never]),
    ],
  },
] as const;

describe.each(cases)('the public pages check of $name', ({ check, schema, good, bad }) => {
  it.each(good.map((value) => [JSON.stringify(value), value]))('should accept %s, as the contract does', (_, value) => {
    expect(schema.safeParse(value).success).toBe(true);
    expect(check(value)).toEqual(value);
  });

  it.each(bad.map((value) => [JSON.stringify(value), value]))('should refuse %s, as the contract does', (_, value) => {
    expect(schema.safeParse(value).success).toBe(false);
    expect(() => check(value)).toThrow(TypeError);
  });
});

describe('the public twins', () => {
  it('should read the paths the full app reads', () => {
    expect([CURRENT_USER_PATH, CREDIT_PACKAGES_PATH, APP_CONFIG_PATH, AVATARS_PATH]).toEqual([
      FULL_CURRENT_USER_PATH,
      FULL_CREDIT_PACKAGES_PATH,
      FULL_APP_CONFIG_PATH,
      FULL_AVATARS_PATH,
    ]);
  });
});
