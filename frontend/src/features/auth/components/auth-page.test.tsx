import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

async function openAuth(url = '/auth') {
  const app = renderApp(url);
  await screen.findByRole('tab', { name: 'Login' });
  return app;
}

async function openRegisterTab() {
  const app = await openAuth();
  await app.user.click(screen.getByRole('tab', { name: 'Register' }));
  await screen.findByLabelText('Confirm Password');
  return app;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('AuthPage', () => {
  describe('Login tab', () => {
    it('should show the login form with a link to reset the password', async () => {
      mockApi();
      await openAuth();

      expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
      expect(screen.getByLabelText('Username or Email')).toHaveAttribute('autocomplete', 'username');
      expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
      expect(screen.getByRole('button', { name: 'Log In' })).toBeEnabled();
      expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
      expect(
        screen.getByText('Transform your selfies into stunning AI avatars with just a few clicks.'),
      ).toBeInTheDocument();
      expect(screen.getByText('AI transformations')).toBeInTheDocument();
      expect(screen.getByText(/credit system/i)).toBeInTheDocument();
      expect(screen.getByText('High-resolution downloads')).toBeInTheDocument();
    });

    it('should also be reachable at /login', async () => {
      mockApi();
      await openAuth('/login');

      expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
    });

    it('should show the SPEC messages under empty fields and not call the API', async () => {
      const fetchMock = mockApi();
      const { user } = await openAuth();

      await user.click(screen.getByRole('button', { name: 'Log In' }));

      const username = screen.getByLabelText('Username or Email');
      expect(await screen.findByText('Username is required')).toBeInTheDocument();
      expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
      expect(username).toHaveAttribute('aria-invalid', 'true');
      expect(username).toHaveAccessibleDescription('Username is required');
      expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 6 characters');
      expect(username).toHaveFocus();
      expect(callsTo(fetchMock, 'POST', '/api/login')).toHaveLength(0);
    });

    it('should clear a field message once the field is edited', async () => {
      mockApi();
      const { user } = await openAuth();
      await user.click(screen.getByRole('button', { name: 'Log In' }));
      await screen.findByText('Username is required');

      await user.type(screen.getByLabelText('Username or Email'), 'a');

      expect(screen.queryByText('Username is required')).not.toBeInTheDocument();
      expect(screen.getByLabelText('Username or Email')).not.toHaveAttribute('aria-invalid');
    });

    it('should log in with the typed credentials, welcome the user back and open the dashboard', async () => {
      const fetchMock = mockApi({ handlers: { 'POST /api/login': () => jsonResponse(alice) } });
      const { user, router } = await openAuth();

      await user.type(screen.getByLabelText('Username or Email'), '  alice@example.com ');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.click(screen.getByRole('button', { name: 'Log In' }));

      expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/dashboard');
      const [call] = callsTo(fetchMock, 'POST', '/api/login');
      expect(call?.body).toEqual({ username: 'alice@example.com', password: 'secret123' });
      expect(call?.init?.credentials).toBe('include');
      expect(screen.getByText('Login successful')).toBeInTheDocument();
      expect(screen.getByText('Welcome back to Likeness!')).toBeInTheDocument();
    });

    it('should show the server message in a "Login failed" toast when the credentials are wrong', async () => {
      mockApi({
        handlers: {
          'POST /api/login': () => errorResponse(401, 'AUTH.INVALID_CREDENTIALS', 'Invalid username or password'),
        },
      });
      const { user, router } = await openAuth();

      await user.type(screen.getByLabelText('Username or Email'), 'alice');
      await user.type(screen.getByLabelText('Password'), 'wrong-password');
      await user.click(screen.getByRole('button', { name: 'Log In' }));

      expect(await screen.findByText('Login failed')).toBeInTheDocument();
      // In the toast, and beside the fields where it stays.
      expect(screen.getAllByText('Invalid username or password')).toHaveLength(2);
      const inline = document.getElementById('login-alert');
      expect(inline).toHaveAttribute('role', 'alert');
      expect(inline).toHaveTextContent('Invalid username or password');
      for (const label of ['Username or Email', 'Password']) {
        expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
        expect(screen.getByLabelText(label)).toHaveAccessibleDescription('Invalid username or password');
      }
      // Focus stays in the form, on the password to type again.
      expect(screen.getByLabelText('Password')).toHaveFocus();
      expect(router.state.location.pathname).toBe('/auth');
      expect(screen.getByRole('button', { name: 'Log In' })).toBeEnabled();
    });

    it('should fall back to the SPEC text when the failure has no server message', async () => {
      mockApi({ handlers: { 'POST /api/login': () => new Response('', { status: 502, statusText: 'Bad Gateway' }) } });
      const { user } = await openAuth();

      await user.type(screen.getByLabelText('Username or Email'), 'alice');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.click(screen.getByRole('button', { name: 'Log In' }));

      expect(await screen.findByText('Login failed')).toBeInTheDocument();
      expect(screen.getAllByText('Please check your credentials and try again.')).toHaveLength(2);
    });

    it('should take the inline error away once the person types again', async () => {
      mockApi({
        handlers: {
          'POST /api/login': () => errorResponse(401, 'AUTH.INVALID_CREDENTIALS', 'Invalid username or password'),
        },
      });
      const { user } = await openAuth();
      await user.type(screen.getByLabelText('Username or Email'), 'alice');
      await user.type(screen.getByLabelText('Password'), 'wrong-password');
      await user.click(screen.getByRole('button', { name: 'Log In' }));
      await screen.findByText('Login failed');

      await user.type(screen.getByLabelText('Password'), 'x');

      expect(document.getElementById('login-alert')).not.toBeInTheDocument();
      expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
    });

    it('should disable the submit button while the login is pending', async () => {
      const pending = deferred<Response>();
      mockApi({ handlers: { 'POST /api/login': () => pending.promise } });
      const { user } = await openAuth();

      await user.type(screen.getByLabelText('Username or Email'), 'alice');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.click(screen.getByRole('button', { name: 'Log In' }));

      await waitFor(() => expect(screen.getByRole('button', { name: 'Log In' })).toBeDisabled());
      pending.resolve(jsonResponse(alice));
      expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' })).toBeInTheDocument();
    });
  });

  describe('Register tab', () => {
    it('should open from ?tab=register with every field', async () => {
      mockApi();
      renderApp('/auth?tab=register');

      expect(await screen.findByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
      for (const label of ['Username', 'Email', 'Password', 'Confirm Password']) {
        expect(screen.getByLabelText(label)).toBeInTheDocument();
      }
      expect(screen.getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    });

    it('should show the SPEC message for each invalid field and not call the API', async () => {
      const fetchMock = mockApi();
      const { user } = await openRegisterTab();

      await user.type(screen.getByLabelText('Username'), 'ab');
      await user.type(screen.getByLabelText('Email'), 'not-an-email');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.type(screen.getByLabelText('Confirm Password'), 'secret124');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));

      expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
      expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
      expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription('Passwords do not match');
      expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
      expect(callsTo(fetchMock, 'POST', '/api/register')).toHaveLength(0);
    });

    it('should reject a username with characters other than letters, numbers and underscores', async () => {
      mockApi();
      const { user } = await openRegisterTab();

      await user.type(screen.getByLabelText('Username'), 'jane doe');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));

      expect(
        await screen.findByText('Username can only contain letters, numbers, and underscores'),
      ).toBeInTheDocument();
    });

    it('should register without the confirmation, announce the free credits and open the dashboard', async () => {
      const newUser = { ...alice, id: 3, username: 'new_user', email: 'new@example.com' };
      const fetchMock = mockApi({ handlers: { 'POST /api/register': () => jsonResponse(newUser) } });
      const { user, router } = await openRegisterTab();

      await user.type(screen.getByLabelText('Username'), 'new_user');
      await user.type(screen.getByLabelText('Email'), 'new@example.com');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.type(screen.getByLabelText('Confirm Password'), 'secret123');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));

      expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, new_user!' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/dashboard');
      expect(callsTo(fetchMock, 'POST', '/api/register').map((call) => call.body)).toEqual([
        { username: 'new_user', email: 'new@example.com', password: 'secret123' },
      ]);
      expect(screen.getByText('Registration successful')).toBeInTheDocument();
      expect(screen.getByText('Your account is ready. Enjoy your 5 free credits!')).toBeInTheDocument();
    });

    it('should show the server message when the username is taken', async () => {
      mockApi({
        handlers: {
          'POST /api/register': () => errorResponse(409, 'AUTH.USERNAME_TAKEN', 'Username already exists'),
        },
      });
      const { user, router } = await openRegisterTab();

      await user.type(screen.getByLabelText('Username'), 'alice');
      await user.type(screen.getByLabelText('Email'), 'alice@example.com');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.type(screen.getByLabelText('Confirm Password'), 'secret123');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));

      const toast = (await screen.findByText('Registration failed')).closest('li');
      expect(toast).not.toBeNull();
      expect(within(toast!).getByText('Username already exists')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/auth');
    });

    it('should show server validation issues under their fields', async () => {
      mockApi({
        handlers: {
          'POST /api/register': () =>
            errorResponse(400, 'COMMON.VALIDATION_FAILED', 'Validation failed', [
              { path: 'email', message: 'This email is not allowed' },
            ]),
        },
      });
      const { user } = await openRegisterTab();

      await user.type(screen.getByLabelText('Username'), 'alice');
      await user.type(screen.getByLabelText('Email'), 'alice@example.com');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.type(screen.getByLabelText('Confirm Password'), 'secret123');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));

      await waitFor(() =>
        expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('This email is not allowed'),
      );
      expect(screen.getByText('Registration failed')).toBeInTheDocument();
    });

    it('should fall back to the SPEC text when the request fails without a server message', async () => {
      mockApi({
        handlers: {
          'POST /api/register': () => Promise.reject(new TypeError('Failed to fetch')),
        },
      });
      const { user } = await openRegisterTab();

      await user.type(screen.getByLabelText('Username'), 'alice');
      await user.type(screen.getByLabelText('Email'), 'alice@example.com');
      await user.type(screen.getByLabelText('Password'), 'secret123');
      await user.type(screen.getByLabelText('Confirm Password'), 'secret123');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));

      expect(await screen.findByText('Registration failed')).toBeInTheDocument();
      expect(screen.getAllByText('Please try again with different information.')).toHaveLength(2);
      expect(screen.getByLabelText('Username')).toHaveFocus();
    });
  });
});
