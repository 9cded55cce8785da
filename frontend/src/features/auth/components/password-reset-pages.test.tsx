import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

const REQUESTED = "If an account with that email exists, you'll receive a password reset link shortly";
const RESET_DONE = 'Your password has been reset. You can now log in with your new password.';
const TOKEN = 'kq3H1h6bC1mJxw9yq0a2i0yC8fJ8bYw6Qv3q7m1r2sA';

describe('ForgotPasswordPage', () => {
  it('should be reached from the login form', async () => {
    mockApi();
    const { user, router } = renderApp('/auth');
    await user.click(await screen.findByRole('link', { name: 'Forgot your password?' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forgot-password');
  });

  it('should say "Please enter a valid email address" under the field and send nothing', async () => {
    const fetchMock = mockApi();
    const { user } = renderApp('/forgot-password');
    const email = await screen.findByLabelText('Email');

    await user.type(email, 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter a valid email address');
    expect(email).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/request-password-reset')).toHaveLength(0);
  });

  it('should send the address, then say a link is on its way with a spam note, Try Different Email and Back to Login', async () => {
    const fetchMock = mockApi({
      handlers: { 'POST /api/request-password-reset': () => jsonResponse({ message: REQUESTED }) },
    });
    const { user, router } = renderApp('/forgot-password');

    await user.type(await screen.findByLabelText('Email'), '  ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(heading).toHaveFocus();
    expect(screen.getAllByText(REQUESTED)[0]).toBeInTheDocument();
    expect(screen.getByText(/check your spam or junk folder/i)).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('Email sent!')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/request-password-reset').map((call) => call.body)).toEqual([
      { email: 'ada@example.com' },
    ]);

    // Try Different Email: back to the form, the address kept to correct it.
    await user.click(screen.getByRole('button', { name: 'Try Different Email' }));
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });

    await user.click(screen.getByRole('link', { name: 'Back to Login' }));
    await screen.findByRole('tab', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('should say "Oops!" with the server’s reason when the request is refused, and keep the form', async () => {
    mockApi({
      handlers: {
        'POST /api/request-password-reset': () =>
          errorResponse(429, 'COMMON.RATE_LIMITED', 'Too many requests. Please try again in a few minutes.'),
      },
    });
    const { user } = renderApp('/forgot-password');

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findByText('Oops!')).toBeInTheDocument();
    expect(screen.getAllByText('Too many requests. Please try again in a few minutes.')).toHaveLength(2);
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('should fall back to SPEC’s words when the server gives no reason', async () => {
    mockApi({
      handlers: { 'POST /api/request-password-reset': () => new Response('', { status: 502, statusText: 'Bad' }) },
    });
    const { user } = renderApp('/forgot-password');

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findAllByText("Couldn't send the email. Please try again.")).toHaveLength(2);
  });
});

describe('ResetPasswordPage', () => {
  it('should say "Invalid reset link" and go to the auth screen when the link has no token', async () => {
    const fetchMock = mockApi();
    const { router } = renderApp('/reset-password');

    expect(await screen.findByText('Invalid reset link')).toBeInTheDocument();
    expect(screen.getByText('This password reset link is invalid or has expired.')).toBeInTheDocument();
    await screen.findByRole('tab', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/auth');
    expect(callsTo(fetchMock, 'POST', '/api/reset-password')).toHaveLength(0);
  });

  it('should check the new password and its confirmation before sending', async () => {
    const fetchMock = mockApi();
    const { user } = renderApp(`/reset-password?token=${TOKEN}`);

    await user.type(await screen.findByLabelText('New Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveFocus();

    await user.type(screen.getByLabelText('New Password'), '6');
    await user.type(screen.getByLabelText('Confirm New Password'), '654321');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm New Password')).toHaveAccessibleDescription('Passwords do not match');
    expect(callsTo(fetchMock, 'POST', '/api/reset-password')).toHaveLength(0);
  });

  it('should set the new password with the token and offer Continue to Login', async () => {
    const fetchMock = mockApi({
      handlers: { 'POST /api/reset-password': () => jsonResponse({ message: RESET_DONE }) },
    });
    const { user, router } = renderApp(`/reset-password?token=${TOKEN}`);

    await user.type(await screen.findByLabelText('New Password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Password reset' })).toHaveFocus();
    expect(screen.getByText(RESET_DONE)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/reset-password').map((call) => call.body)).toEqual([
      { token: TOKEN, password: 'new-secret', confirmPassword: 'new-secret' },
    ]);

    await user.click(screen.getByRole('link', { name: 'Continue to Login' }));
    await screen.findByRole('tab', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('should explain a used or expired link and link to asking for a new one', async () => {
    mockApi({
      handlers: {
        'POST /api/reset-password': () =>
          errorResponse(400, 'AUTH.RESET_TOKEN_INVALID', 'This password reset link is invalid or has expired.'),
      },
    });
    const { user, router } = renderApp(`/reset-password?token=${TOKEN}`);

    await user.type(await screen.findByLabelText('New Password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(screen.getByText('Reset failed')).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Request a New Link' }));
    await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' });
    expect(router.state.location.pathname).toBe('/forgot-password');
  });

  it('should keep the form and say "Reset failed" with SPEC’s fallback when the server fails', async () => {
    mockApi({
      handlers: { 'POST /api/reset-password': () => new Response('', { status: 503, statusText: 'Unavailable' }) },
    });
    const { user } = renderApp(`/reset-password?token=${TOKEN}`);

    await user.type(await screen.findByLabelText('New Password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findAllByText('Failed to reset password. The link may have expired.')).toHaveLength(2);
    expect(screen.getByLabelText('New Password')).toHaveFocus();
    expect(screen.getByText('Reset failed')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toBeInTheDocument();
  });

  it('should treat a token no link could carry as an invalid link without asking the server', async () => {
    const fetchMock = mockApi();
    renderApp(`/reset-password?token=${'x'.repeat(300)}`);

    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/reset-password')).toHaveLength(0);
  });

  it('should work in a browser that is still signed in, and ask again who is signed in afterwards', async () => {
    const fetchMock = mockApi({
      user: alice,
      handlers: { 'POST /api/reset-password': () => jsonResponse({ message: RESET_DONE }) },
    });
    const { user } = renderApp(`/reset-password?token=${TOKEN}`);

    await user.type(await screen.findByLabelText('New Password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    await screen.findByRole('heading', { level: 1, name: 'Password reset' });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/user')).toHaveLength(2));
  });
});
