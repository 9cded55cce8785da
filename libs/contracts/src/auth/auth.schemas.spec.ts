import { loginRequestSchema, registerFormSchema, registerRequestSchema } from './auth.schemas.js';

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
