import {
  changePasswordRequestSchema,
  loginRequestSchema,
  registerFormSchema,
  registerRequestSchema,
  requestPasswordResetRequestSchema,
  resetPasswordRequestSchema,
} from './auth.schemas.js';

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.error?.issues[0]?.message;
}

describe('registerRequestSchema', () => {
  it('should accept a valid registration', () => {
    const parsed = registerRequestSchema.parse({ username: 'ada_99', email: ' Ada@Example.com ', password: 'secret1' });
    expect(parsed.email).toBe('Ada@Example.com');
  });

  it.each([
    ['ab', 'Username must be at least 3 characters'],
    ['a'.repeat(21), 'Username must be at most 20 characters'],
    ['ada lovelace', 'Username can only contain letters, numbers, and underscores'],
    ['ada-l', 'Username can only contain letters, numbers, and underscores'],
  ])('should refuse the username %p with the SPEC message', (username, message) => {
    expect(firstMessage(registerRequestSchema.safeParse({ username, email: 'a@b.co', password: 'secret1' }))).toBe(
      message,
    );
  });

  it('should refuse an invalid e-mail with the SPEC message', () => {
    expect(firstMessage(registerRequestSchema.safeParse({ username: 'ada', email: 'nope', password: 'secret1' }))).toBe(
      'Please enter a valid email',
    );
  });

  it('should refuse a short password', () => {
    expect(firstMessage(registerRequestSchema.safeParse({ username: 'ada', email: 'a@b.co', password: '12345' }))).toBe(
      'Password must be at least 6 characters',
    );
  });
});

describe('registerFormSchema', () => {
  it('should refuse a confirmation that does not match, on the confirmation field', () => {
    const result = registerFormSchema.safeParse({
      username: 'ada',
      email: 'a@b.co',
      password: 'secret1',
      confirmPassword: 'secret2',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ message: 'Passwords do not match', path: ['confirmPassword'] });
  });
});

describe('loginRequestSchema', () => {
  it('should require a username', () => {
    expect(firstMessage(loginRequestSchema.safeParse({ username: '  ', password: 'secret1' }))).toBe(
      'Username is required',
    );
  });

  it('should require a password of at least 6 characters', () => {
    expect(firstMessage(loginRequestSchema.safeParse({ username: 'ada', password: 'x' }))).toBe(
      'Password must be at least 6 characters',
    );
  });
});

describe('requestPasswordResetRequestSchema', () => {
  it('should refuse an invalid address with the SPEC message', () => {
    expect(firstMessage(requestPasswordResetRequestSchema.safeParse({ email: 'ada@' }))).toBe(
      'Please enter a valid email address',
    );
    expect(firstMessage(requestPasswordResetRequestSchema.safeParse({}))).toBe('Please enter a valid email address');
  });
});

describe('resetPasswordRequestSchema', () => {
  it('should require the token', () => {
    expect(
      firstMessage(
        resetPasswordRequestSchema.safeParse({ token: ' ', password: 'secret1', confirmPassword: 'secret1' }),
      ),
    ).toBe('Reset token is required');
  });

  it('should refuse a confirmation that does not match, on the confirmation field', () => {
    const result = resetPasswordRequestSchema.safeParse({
      token: 't',
      password: 'secret1',
      confirmPassword: 'secret2',
    });
    expect(result.error?.issues[0]).toMatchObject({ message: 'Passwords do not match', path: ['confirmPassword'] });
  });

  it('should refuse a short password', () => {
    expect(
      firstMessage(resetPasswordRequestSchema.safeParse({ token: 't', password: '12345', confirmPassword: '12345' })),
    ).toBe('Password must be at least 6 characters');
  });
});

describe('changePasswordRequestSchema', () => {
  it('should refuse a new password equal to the current one, on the new password', () => {
    const result = changePasswordRequestSchema.safeParse({
      currentPassword: 'secret1',
      newPassword: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(result.error?.issues[0]).toMatchObject({
      message: 'New password must be different from the current password',
      path: ['newPassword'],
    });
  });

  it('should refuse a confirmation that does not match', () => {
    const result = changePasswordRequestSchema.safeParse({
      currentPassword: 'secret1',
      newPassword: 'secret2',
      confirmPassword: 'secret3',
    });
    expect(result.error?.issues[0]).toMatchObject({ message: 'Passwords do not match', path: ['confirmPassword'] });
  });

  it('should require the current password', () => {
    expect(
      firstMessage(
        changePasswordRequestSchema.safeParse({
          currentPassword: '',
          newPassword: 'secret2',
          confirmPassword: 'secret2',
        }),
      ),
    ).toBe('Current password is required');
  });
});
