import { statusOf } from '@likeness/contracts';
import { DomainError, RpcRequestInvalidError } from '@likeness/nest-kit';
import { z } from 'zod';
import { fromHttpStatus, toHttpError } from './http-errors.js';

const refusedPayload = () =>
  z.object({ refreshToken: z.string().max(4), payload: z.string() }).safeParse({ refreshToken: 'long', payload: 1 })
    .error!;

describe(toHttpError.name, () => {
  it('should keep the field issues of a body the user sent', () => {
    const error = DomainError.validation(
      z.object({ username: z.string({ error: 'Username is required' }) }).safeParse({}).error!,
    );
    expect(toHttpError(error)).toEqual({
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
      message: 'Username is required',
      issues: [{ path: 'username', message: 'Username is required' }],
    });
  });

  it('should not name the fields of an RPC payload the gateway built', () => {
    const body = toHttpError(new RpcRequestInvalidError('auth.sessions.refresh', refusedPayload()));
    expect(body).toEqual({ status: 400, code: 'COMMON.VALIDATION_FAILED', message: 'The request is not valid.' });
    expect(JSON.stringify(body)).not.toMatch(/refreshToken|payload/);
  });

  it('should not name the fields of any other contract check', () => {
    expect(toHttpError(refusedPayload())).toEqual({
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
      message: 'The request is not valid.',
    });
  });
});

describe(fromHttpStatus.name, () => {
  it.each([400, 404, 408, 413, 414, 415, 429, 431])('should answer %i with a code that names that status', (status) => {
    const body = fromHttpStatus(status);
    expect(body.status).toBe(status);
    expect(statusOf(body.code as Parameters<typeof statusOf>[0])).toBe(status);
  });

  it('should reveal nothing of a server error', () => {
    expect(fromHttpStatus(502)).toEqual({
      status: 500,
      code: 'COMMON.INTERNAL',
      message: 'Something went wrong on our side. Please try again.',
    });
  });
});
