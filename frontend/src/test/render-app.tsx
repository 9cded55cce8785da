import type { CurrentUser } from '@likeness/contracts';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { commitNow, routes } from '@/app/router';
import { createAppQueryClient } from '@/app/query-client';

export const alice: CurrentUser = { id: 2, username: 'alice', email: 'alice@example.com', credits: 5, role: 'user' };

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  issues?: { path: string; message: string }[],
) {
  return jsonResponse({ status, code, message, ...(issues ? { issues } : {}) }, status);
}

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;
/** Answers by "METHOD /path", as {@link mockApi} takes them. */
export type ApiHandlers = Record<string, Handler>;

/**
 * Replaces `fetch` with a mock that answers "METHOD /path" from the given handlers (a key with
 * a query string matches only that query; one without matches any query).
 * GET /api/user answers 401 (signed out) unless a handler or `user` says otherwise.
 */
export function mockApi({ user = null, handlers = {} }: { user?: CurrentUser | null; handlers?: ApiHandlers } = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const key = `${init?.method ?? 'GET'} ${path}`;
    const handler = handlers[key] ?? handlers[key.split('?')[0]!];
    if (handler) return handler(init);
    if (key === 'GET /api/user') {
      return user ? jsonResponse(user) : errorResponse(401, 'AUTH.UNAUTHENTICATED', 'Not signed in');
    }
    return errorResponse(404, 'COMMON.NOT_FOUND', `No mock for ${key}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls made to one endpoint, with their JSON bodies parsed. */
export function callsTo(fetchMock: ReturnType<typeof mockApi>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => input === path && (init?.method ?? 'GET') === method)
    .map(([, init]) => ({
      init,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}

/**
 * Renders the whole app (providers + real routes) at the given URL. `strict` wraps it in
 * StrictMode as main.tsx does, so effects run twice on mount.
 */
export function renderApp(url: string, { strict = false }: { strict?: boolean } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queryClient = createAppQueryClient();
  const user = userEvent.setup();
  const app = (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} flushSync={commitNow} />
    </AppProviders>
  );
  const view = render(strict ? <StrictMode>{app}</StrictMode> : app);
  return { ...view, router, user, queryClient };
}
