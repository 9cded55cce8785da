import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiBlob, apiRequest, getQueryFn, serverMessageOr } from './api-client';
import { createQueryClient } from './query-client';

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const invalidCredentials = JSON.stringify({
  status: 401,
  code: 'AUTH.INVALID_CREDENTIALS',
  message: 'Invalid username or password',
});

function queryContext(path: string) {
  return { queryKey: [path], signal: new AbortController().signal, meta: undefined } as never;
}

describe('apiRequest', () => {
  it('should send cookies, a JSON content type and the body when a body is given', async () => {
    const fetchMock = stubFetch(new Response(JSON.stringify({ ok: 1 }), { status: 200 }));

    const data = await apiRequest('POST', '/api/login', { body: { username: 'alice', password: 'secret1' } });

    expect(data).toEqual({ ok: 1 });
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/login');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(init?.body as string)).toEqual({ username: 'alice', password: 'secret1' });
  });

  it('should send neither a content type nor a body when no body is given', async () => {
    const fetchMock = stubFetch(new Response(JSON.stringify({ success: true }), { status: 200 }));

    await apiRequest('POST', '/api/logout');

    const [, init] = fetchMock.mock.calls[0]!;
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(init?.headers).toBeUndefined();
    expect(init?.body).toBeUndefined();
  });

  it('should send FormData as it is, leaving the multipart content type to the browser', async () => {
    const fetchMock = stubFetch(new Response(JSON.stringify({ uploadedFiles: [] }), { status: 201 }));
    const form = new FormData();
    form.append('selfies', new File(['a'], 'a.png', { type: 'image/png' }));

    await apiRequest('POST', '/api/upload-selfies', { body: form });

    const [, init] = fetchMock.mock.calls[0]!;
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(init?.headers).toBeUndefined();
    expect(init?.body).toBe(form);
  });

  it('should throw "status: body text" with the parsed error body when the response is not OK', async () => {
    stubFetch(new Response(invalidCredentials, { status: 401, statusText: 'Unauthorized' }));

    const error = await apiRequest('POST', '/api/login', { body: {} }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe(`401: ${invalidCredentials}`);
    expect(apiError.status).toBe(401);
    expect(apiError.code).toBe('AUTH.INVALID_CREDENTIALS');
    expect(apiError.serverMessage).toBe('Invalid username or password');
    expect(apiError.issues).toEqual([]);
  });

  it('should use the status text when the error body is empty', async () => {
    stubFetch(new Response(null, { status: 503, statusText: 'Service Unavailable' }));

    const error = (await apiRequest('GET', '/api/user').catch((caught: unknown) => caught)) as ApiError;

    expect(error.message).toBe('503: Service Unavailable');
    expect(error.code).toBeUndefined();
    expect(error.serverMessage).toBeUndefined();
  });

  it('should keep a non-JSON error body as text without a server message', async () => {
    stubFetch(new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));

    const error = (await apiRequest('GET', '/api/user').catch((caught: unknown) => caught)) as ApiError;

    expect(error.message).toBe('502: Bad gateway');
    expect(error.body).toBeNull();
    expect(serverMessageOr(error, 'fallback')).toBe('fallback');
  });

  it('should expose field issues of a validation failure', async () => {
    const body = {
      status: 400,
      code: 'COMMON.VALIDATION_FAILED',
      message: 'Validation failed',
      issues: [{ path: 'email', message: 'Please enter a valid email' }],
    };
    stubFetch(new Response(JSON.stringify(body), { status: 400, statusText: 'Bad Request' }));

    const error = (await apiRequest('POST', '/api/register', { body: {} }).catch(
      (caught: unknown) => caught,
    )) as ApiError;

    expect(error.issues).toEqual([{ path: 'email', message: 'Please enter a valid email' }]);
    expect(serverMessageOr(error, 'fallback')).toBe('Validation failed');
  });
});

describe('apiBlob', () => {
  it('should GET the file with cookies and return its bytes', async () => {
    const fetchMock = stubFetch(new Response('png', { status: 200, headers: { 'Content-Type': 'image/png' } }));

    const blob = await apiBlob('/api/image-formatter?url=%2Fa.png&format=png');

    expect(blob.type).toBe('image/png');
    expect(blob.size).toBe(3);
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ method: 'GET', credentials: 'include' });
  });

  it('should throw an ApiError with the server message when the response is not OK', async () => {
    const body = JSON.stringify({ status: 404, code: 'COMMON.NOT_FOUND', message: 'Image not found' });
    stubFetch(new Response(body, { status: 404, statusText: 'Not Found' }));

    const error = (await apiBlob('/api/image-formatter').catch((caught: unknown) => caught)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error.serverMessage).toBe('Image not found');
  });
});

describe('getQueryFn', () => {
  it('should GET the first query key segment and return its JSON', async () => {
    const fetchMock = stubFetch(new Response(JSON.stringify({ id: 7 }), { status: 200 }));

    const data = await getQueryFn({ on401: 'throw' })(queryContext('/api/things'));

    expect(data).toEqual({ id: 7 });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/things');
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ method: 'GET', credentials: 'include' });
  });

  it('should return null on 401 when asked to', async () => {
    stubFetch(new Response(invalidCredentials, { status: 401 }));

    await expect(getQueryFn({ on401: 'returnNull' })(queryContext('/api/user'))).resolves.toBeNull();
  });

  it('should fail on 401 by default', async () => {
    stubFetch(new Response('', { status: 401, statusText: 'Unauthorized' }));

    await expect(getQueryFn({ on401: 'throw' })(queryContext('/api/user'))).rejects.toThrow('401: Unauthorized');
  });

  it('should still fail on other errors when 401 returns null', async () => {
    stubFetch(new Response('', { status: 500, statusText: 'Internal Server Error' }));

    await expect(getQueryFn({ on401: 'returnNull' })(queryContext('/api/user'))).rejects.toThrow(
      '500: Internal Server Error',
    );
  });
});

describe('createQueryClient', () => {
  it('should never go stale, refetch on focus or retry', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();

    expect(queries).toMatchObject({ staleTime: Infinity, refetchOnWindowFocus: false, retry: false });
    expect(queries?.queryFn).toBeTypeOf('function');
    expect(mutations).toMatchObject({ retry: false });
  });
});
