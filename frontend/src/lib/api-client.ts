import { errorBodySchema, type ErrorBody, type FieldIssue } from '@likeness/contracts';
import type { QueryFunction } from '@tanstack/react-query';
import type { z } from 'zod';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A non-OK response. `message` follows SPEC §8 ("401: {body text or status text}");
 * the parsed error body, when the server sent one, is exposed field by field.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly body: ErrorBody | null;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.status = status;
    this.body = parseErrorBody(bodyText);
  }

  /** The stable error code, e.g. `AUTH.INVALID_CREDENTIALS`. */
  get code(): string | undefined {
    return this.body?.code;
  }

  /** The human-readable message the server chose. */
  get serverMessage(): string | undefined {
    return this.body?.message;
  }

  /** Field-level problems from a validation failure. */
  get issues(): FieldIssue[] {
    return this.body?.issues ?? [];
  }
}

function parseErrorBody(bodyText: string): ErrorBody | null {
  if (!bodyText) return null;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(bodyText));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message for a failed call, else the given fallback (for toasts). */
export function serverMessageOr(error: unknown, fallback: string): string {
  return (isApiError(error) && error.serverMessage) || fallback;
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, bodyText);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

export interface RequestOptions<TSchema extends z.ZodType> {
  /** A JSON value, or FormData sent as multipart (the browser sets its content type and boundary). */
  body?: unknown;
  /** Validates the response against the shared contract. */
  schema?: TSchema;
  signal?: AbortSignal;
}

/**
 * Calls the API with the session cookies. A JSON content type and body are sent only when a
 * body is given (FormData goes as it is, multipart); a non-OK response throws an {@link ApiError}.
 */
export async function apiRequest<TSchema extends z.ZodType = z.ZodUnknown>(
  method: HttpMethod,
  path: string,
  { body, schema, signal }: RequestOptions<TSchema> = {},
): Promise<z.output<TSchema>> {
  const response = await fetch(path, { method, credentials: 'include', ...encodeBody(body), signal });
  await throwIfNotOk(response);
  const data = await readJson(response);
  return (schema ? schema.parse(data) : data) as z.output<TSchema>;
}

function encodeBody(body: unknown): Pick<RequestInit, 'headers' | 'body'> {
  if (body === undefined) return { headers: undefined, body: undefined };
  // No content type for FormData: the browser writes multipart/form-data with its boundary.
  if (body instanceof FormData) return { headers: undefined, body };
  return { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

/** GETs a file (e.g. a converted image) with the session cookies; a non-OK response throws an {@link ApiError}. */
export async function apiBlob(path: string, { signal }: { signal?: AbortSignal } = {}): Promise<Blob> {
  const response = await fetch(path, { method: 'GET', credentials: 'include', signal });
  await throwIfNotOk(response);
  return response.blob();
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default data fetch: a GET to the query's first key segment, parsed as JSON.
 * With `on401: 'returnNull'` a 401 resolves to null instead of failing (e.g. "not signed in").
 */
export function getQueryFn<TSchema extends z.ZodType = z.ZodUnknown>(options: {
  on401: 'returnNull';
  schema?: TSchema;
}): QueryFunction<z.output<TSchema> | null>;
export function getQueryFn<TSchema extends z.ZodType = z.ZodUnknown>(options: {
  on401: 'throw';
  schema?: TSchema;
}): QueryFunction<z.output<TSchema>>;
export function getQueryFn<TSchema extends z.ZodType>({
  on401,
  schema,
}: {
  on401: UnauthorizedBehavior;
  schema?: TSchema;
}): QueryFunction<z.output<TSchema> | null> {
  return async ({ queryKey, signal }) => {
    const path = queryKey[0];
    if (typeof path !== 'string') throw new TypeError('The first query key segment must be an API path');
    try {
      return await apiRequest('GET', path, { schema, signal });
    } catch (error) {
      if (on401 === 'returnNull' && isApiError(error) && error.status === 401) return null;
      throw error;
    }
  };
}
