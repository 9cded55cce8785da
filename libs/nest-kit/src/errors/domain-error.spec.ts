import { z } from 'zod';
import { DomainError, INTERNAL_ERROR_MESSAGE, toErrorBody } from './domain-error.js';

describe(toErrorBody.name, () => {
  it('should keep the code, status and message of a domain error', () => {
    expect(toErrorBody(new DomainError('AUTH.EMAIL_TAKEN', 'Taken.'))).toEqual({
      status: 409,
      code: 'AUTH.EMAIL_TAKEN',
      message: 'Taken.',
    });
  });

  it('should turn a zod error into a 400 led by its first message, with every field', () => {
    const result = z
      .object({ a: z.string().min(2, { error: 'A is short' }), b: z.number() })
      .safeParse({ a: 'x', b: 'y' });
    expect(toErrorBody(result.error)).toMatchObject({
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
      message: 'A is short',
      issues: [{ path: 'a', message: 'A is short' }, { path: 'b' }],
    });
  });

  it('should reveal nothing about an unexpected error', () => {
    const body = toErrorBody(new TypeError("Cannot read properties of undefined (reading 'password')"));
    expect(body).toEqual({ status: 500, code: 'COMMON.INTERNAL', message: INTERNAL_ERROR_MESSAGE });
  });

  it('should rebuild an unknown remote code as an internal error', () => {
    expect(DomainError.fromBody({ status: 418, code: 'TEAPOT', message: 'short and stout' })).toMatchObject({
      code: 'COMMON.INTERNAL',
      status: 500,
    });
  });
});
