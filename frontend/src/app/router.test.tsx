import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { avatarsQueryOptions } from '@/lib/avatars/get-avatars';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

describe('router', () => {
  it('should show a spinner while the session loads, then send a visitor from /dashboard to /auth', async () => {
    let answer!: (response: Response) => void;
    mockApi({ handlers: { 'GET /api/user': () => new Promise<Response>((resolve) => (answer = resolve)) } });
    const { router } = renderApp('/dashboard');

    expect(await screen.findByRole('status', { name: 'Loading' })).toBeInTheDocument();
    answer(errorResponse(401, 'AUTH.UNAUTHENTICATED', 'Not signed in'));

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByRole('button', { name: 'Theme' })).toBeInTheDocument();
    expect(screen.queryByText(/Welcome, /)).not.toBeInTheDocument();
  });

  it('should paint the auth screen before the session check answers, and leave it for a signed-in user once it does', async () => {
    let answer!: (response: Response) => void;
    mockApi({ handlers: { 'GET /api/user': () => new Promise<Response>((resolve) => (answer = resolve)) } });
    const { router } = renderApp('/auth');

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    answer(jsonResponse(alice));

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it.each(['/gallery', '/models', '/create'])('should send a visitor from %s to /auth', async (path) => {
    mockApi();
    const { router } = renderApp(path);

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('should send a signed-in user from /auth to the dashboard', async () => {
    mockApi({ user: alice });
    const { router } = renderApp('/auth');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' })).toBeInTheDocument();
    expect(screen.getByText('Create stunning AI avatars with your selfies')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('should show the landing page at / to a signed-in user, with a way to the dashboard', async () => {
    mockApi({ user: alice });
    const { router } = renderApp('/');

    await screen.findByRole('heading', { level: 1, name: /Turn your selfies into/ });
    expect(await screen.findByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(router.state.location.pathname).toBe('/');
  });

  it('should show the landing page at / to a visitor, with Log In and Get Started', async () => {
    mockApi();
    const { router } = renderApp('/');

    await screen.findByRole('heading', { level: 1, name: /Turn your selfies into/ });
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth');
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/auth?tab=register');
    expect(router.state.location.pathname).toBe('/');
  });

  it('should treat a failed session check as signed out and only log it', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi({ handlers: { 'GET /api/user': () => new Response('', { status: 500, statusText: 'Server Error' }) } });
    const { router } = renderApp('/dashboard');

    await screen.findByRole('tab', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/auth');
    expect(consoleError).toHaveBeenCalledWith('Session check failed', expect.objectContaining({ status: 500 }));
  });

  it('should show the 404 screen for an unknown path', async () => {
    mockApi();
    renderApp('/no-such-page');

    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /back to home/i })).toHaveAttribute('href', '/');
  });
});

describe('signed-in shell', () => {
  it('should open the create page, the gallery and the models page from the header', async () => {
    mockApi({
      user: alice,
      handlers: {
        'GET /api/avatars': () => jsonResponse(avatarsPage([])),
        'GET /api/uploaded-images': () => jsonResponse([]),
        'GET /api/custom-models': () => jsonResponse([]),
      },
    });
    const { user, router } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });
    const [headerNav] = screen.getAllByRole('navigation', { name: 'Main' });

    await user.click(within(headerNav!).getByRole('link', { name: 'Create' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Studio Quality Photos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/create');

    await user.click(within(headerNav!).getByRole('link', { name: 'Gallery' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Avatar Gallery' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/gallery');

    await user.click(within(headerNav!).getByRole('link', { name: 'Models' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Custom AI Models' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/models');
  });

  it('should link the logo and Home to the dashboard and offer the theme control', async () => {
    mockApi({ user: alice });
    renderApp('/dashboard');

    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });
    expect(screen.getByRole('link', { name: 'Likeness' })).toHaveAttribute('href', '/dashboard');
    const [homeLink] = screen.getAllByRole('link', { name: 'Home' });
    expect(homeLink).toHaveAttribute('href', '/dashboard');
    expect(homeLink).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Theme' })).toBeInTheDocument();
  });

  it('should list the user in the account menu and log out to the auth screen', async () => {
    const fetchMock = mockApi({ user: alice, handlers: { 'POST /api/logout': () => jsonResponse({ success: true }) } });
    const { user, router, queryClient } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });
    queryClient.setQueryData(avatarsQueryOptions().queryKey, avatarsPage([makeAvatar(1)]));

    const trigger = screen.getByRole('button', { name: /^Account menu/ });
    expect(trigger).toHaveTextContent('AL');
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('alice')).toBeInTheDocument();
    expect(within(menu).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Dashboard' })).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(screen.getByText('Logged out')).toBeInTheDocument();
    expect(queryClient.getQueryData(avatarsQueryOptions().queryKey)).toBeUndefined();
    expect(queryClient.getQueryData(['/api/user'])).toBeNull();
    const [logoutCall] = callsTo(fetchMock, 'POST', '/api/logout');
    expect(logoutCall?.body).toBeUndefined();
    expect(logoutCall?.init?.credentials).toBe('include');
  });

  it('should stay signed in and say so when logout fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi({ user: alice, handlers: { 'POST /api/logout': () => errorResponse(500, 'COMMON.INTERNAL', 'Boom') } });
    const { user, router } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });

    await user.click(screen.getByRole('button', { name: /^Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Logout failed')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome, alice!'));
  });

  it('should send a signed-in user to /auth when a later call finds the session gone', async () => {
    mockApi({
      user: alice,
      handlers: {
        'GET /api/avatars': () =>
          errorResponse(401, 'AUTH.UNAUTHENTICATED', 'Your session has expired. Please log in again.'),
      },
    });
    const { router, queryClient } = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' })).toBeInTheDocument();

    await queryClient.fetchQuery({ queryKey: ['/api/avatars'] }).catch(() => undefined);

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });
});
