import type { CreditHistoryEntry, CreditHistoryResponse } from '@likeness/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { creditPackages } from '@/test/billing-fixtures';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp, type ApiHandlers } from '@/test/render-app';
import { avatarsPage } from '@/test/media-fixtures';

const bob = { ...alice, credits: 95 };

function entry(id: number, overrides: Partial<CreditHistoryEntry> = {}): CreditHistoryEntry {
  return {
    id: `ledger:${id}`,
    kind: 'adjustment',
    credits: 0,
    description: `Line ${id}`,
    createdAt: new Date(Date.UTC(2025, 5, 20, 12, 60 - id)).toISOString(),
    reference: null,
    holdStatus: null,
    amountCents: null,
    ...overrides,
  };
}

const history: CreditHistoryEntry[] = [
  entry(1, {
    id: 'hold:5',
    kind: 'hold',
    credits: -5,
    description: 'Credits held for a generation',
    holdStatus: 'held',
  }),
  entry(2, { id: 'release:4', kind: 'release', credits: 30, description: 'Model training failed: credits returned' }),
  entry(3, { id: 'capture:3', kind: 'capture', credits: 0, description: 'Generation charged' }),
  entry(4, {
    kind: 'purchase',
    credits: 125,
    description: 'Creator Pack purchased',
    amountCents: 1100,
  }),
  entry(5, { kind: 'welcome', credits: 5, description: 'Welcome credits' }),
];

function historyPage(entries: CreditHistoryEntry[], page = 1, total = entries.length): CreditHistoryResponse {
  return { entries, page, pageSize: 20, total };
}

function openProfile(url = '/profile', handlers: ApiHandlers = {}, user = bob) {
  const fetchMock = mockApi({
    user,
    handlers: {
      'GET /api/credit-history': () => jsonResponse(historyPage(history)),
      'GET /api/config': () => jsonResponse({ supportEmail: 'help@likeness.example' }),
      'GET /api/credit-packages': () => jsonResponse(creditPackages),
      'GET /api/avatars': () => jsonResponse(avatarsPage([])),
      'GET /api/custom-models': () => jsonResponse([]),
      'GET /api/generation-jobs': () => jsonResponse([]),
      ...handlers,
    },
  });
  return { fetchMock, ...renderApp(url) };
}

async function findHeading() {
  return screen.findByRole('heading', { level: 1, name: 'Profile Settings' });
}

describe('ProfilePage', () => {
  describe('tabs', () => {
    it('should send a visitor to /login', async () => {
      mockApi();
      const { router } = renderApp('/profile?tab=help');

      await screen.findByRole('tab', { name: 'Login' });
      expect(router.state.location.pathname).toBe('/login');
    });

    it('should open the account tab, and keep the chosen tab in the address', async () => {
      const { user, router } = openProfile();
      await findHeading();

      expect(screen.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
      await user.click(screen.getByRole('tab', { name: 'Billing' }));
      expect(router.state.location.search).toBe('?tab=billing');
      await user.click(screen.getByRole('tab', { name: 'Security' }));
      expect(router.state.location.search).toBe('?tab=security');
      expect(screen.getByRole('tabpanel', { name: 'Security' })).toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: 'Account' }));
      expect(router.state.location.search).toBe('');
    });

    it('should open Help & Support from ?tab=help', async () => {
      openProfile('/profile?tab=help');
      await findHeading();
      expect(screen.getByRole('tab', { name: 'Help & Support' })).toHaveAttribute('aria-selected', 'true');
      expect(screen.getByRole('tabpanel', { name: 'Help & Support' })).toBeInTheDocument();
    });

    it('should open the account tab for a tab it does not know', async () => {
      openProfile('/profile?tab=nope');
      await findHeading();
      expect(screen.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
    });

    it('should be reached from the account menu and from the dashboard’s Need Help?', async () => {
      const { user, router } = openProfile('/dashboard');
      await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });

      await user.click(screen.getByRole('link', { name: 'Need Help?' }));
      await findHeading();
      expect(router.state.location.pathname).toBe('/profile');
      expect(router.state.location.search).toBe('?tab=help');
      expect(screen.getByRole('tab', { name: 'Help & Support' })).toHaveAttribute('aria-selected', 'true');

      await user.click(screen.getByRole('button', { name: /^Account menu/ }));
      const menu = await screen.findByRole('menu');
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(['Dashboard', 'Profile Settings', 'Logout']);
      await user.click(within(menu).getByRole('menuitem', { name: 'Profile Settings' }));
      await waitFor(() => expect(router.state.location.search).toBe(''));
      expect(screen.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
    });

    it('should log out to /login and say so', async () => {
      const { user, router } = openProfile('/profile', { 'POST /api/logout': () => jsonResponse({ success: true }) });
      await findHeading();

      await user.click(screen.getByRole('button', { name: 'Log Out' }));

      await screen.findByRole('tab', { name: 'Login' });
      expect(router.state.location.pathname).toBe('/login');
      // The toast follows the logout's answer, which may settle just after the auth screen shows.
      expect(await screen.findByText('Logged out')).toBeInTheDocument();
    });

    it('should stay and say "Logout failed" when the logout fails', async () => {
      const { user } = openProfile('/profile', {
        'POST /api/logout': () => new Response('', { status: 503, statusText: 'Unavailable' }),
      });
      await findHeading();
      vi.spyOn(console, 'error').mockImplementation(() => {});

      await user.click(screen.getByRole('button', { name: 'Log Out' }));

      expect(await screen.findByText('Logout failed')).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Profile Settings' })).toBeInTheDocument();
    });
  });

  describe('Account', () => {
    it('should show the username and e-mail read-only and the credits remaining', async () => {
      openProfile();
      await findHeading();

      expect(screen.getByLabelText('Username')).toHaveValue('alice');
      expect(screen.getByLabelText('Username')).toHaveAttribute('readonly');
      expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com');
      expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
      const credits = screen.getByText('Credits remaining').closest<HTMLElement>('[data-slot="card"]')!;
      expect(within(credits).getByText('95')).toBeInTheDocument();
    });

    it('should ask for the password before deleting, and say a wrong one under the field', async () => {
      const { user, fetchMock } = openProfile('/profile', {
        'DELETE /api/account': () =>
          errorResponse(403, 'AUTH.WRONG_PASSWORD', 'Password is incorrect', [
            { path: 'password', message: 'Password is incorrect' },
          ]),
      });
      await findHeading();

      await user.click(screen.getByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
      const password = within(dialog).getByLabelText('Password');
      await waitFor(() => expect(password).toHaveFocus());

      await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
      expect(await within(dialog).findByText('Password is required')).toBeInTheDocument();
      expect(callsTo(fetchMock, 'DELETE', '/api/account')).toHaveLength(0);

      await user.type(password, 'wrong-password');
      await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
      expect(await within(dialog).findByText('Password is incorrect')).toBeInTheDocument();
      expect(password).toHaveAccessibleDescription(/Password is incorrect/);
      expect(screen.getByRole('alertdialog')).toBeInTheDocument();

      // Cancel closes it; opened again, it starts empty.
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      await user.click(screen.getByRole('button', { name: 'Delete Account' }));
      const reopened = await screen.findByRole('alertdialog');
      expect(within(reopened).getByLabelText('Password')).toHaveValue('');
      expect(within(reopened).queryByText('Password is incorrect')).not.toBeInTheDocument();
    });

    it('should delete the account with the password, forget the session and land signed out', async () => {
      let deleted = false;
      const { user, fetchMock, router, queryClient } = openProfile('/profile', {
        'DELETE /api/account': () => {
          deleted = true;
          return jsonResponse({ message: 'Your account has been deleted.' });
        },
        'GET /api/user': () =>
          deleted ? errorResponse(401, 'AUTH.UNAUTHENTICATED', 'Not signed in') : jsonResponse(bob),
      });
      await findHeading();
      // Something cached for the user, which must not outlive the account.
      await user.click(screen.getByRole('tab', { name: 'Billing' }));
      await screen.findByText('Creator Pack purchased');

      await user.click(screen.getByRole('tab', { name: 'Account' }));
      await user.click(screen.getByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('alertdialog');
      await user.type(within(dialog).getByLabelText('Password'), 'correct-horse');
      await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));

      expect(await screen.findByText('Account deleted')).toBeInTheDocument();
      expect(screen.getByText('Your account has been deleted.')).toBeInTheDocument();
      // The landing page, signed out.
      await screen.findByRole('link', { name: 'Log In' });
      expect(router.state.location.pathname).toBe('/');
      expect(screen.queryByRole('button', { name: /^Account menu/ })).not.toBeInTheDocument();
      expect(callsTo(fetchMock, 'DELETE', '/api/account').map((call) => call.body)).toEqual([
        { password: 'correct-horse' },
      ]);
      expect(queryClient.getQueryData(['/api/user'])).toBeNull();
      expect(queryClient.getQueryCache().findAll({ queryKey: ['/api/credit-history'] })).toEqual([]);
    });

    it('should keep the dialog open and say so when the deletion fails', async () => {
      const { user } = openProfile('/profile', {
        'DELETE /api/account': () =>
          errorResponse(503, 'COMMON.SERVICE_UNAVAILABLE', 'The service is busy. Please try again shortly.'),
      });
      await findHeading();

      await user.click(screen.getByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('alertdialog');
      await user.type(within(dialog).getByLabelText('Password'), 'correct-horse');
      await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));

      expect(await screen.findByText('Account deletion failed')).toBeInTheDocument();
      expect(screen.getByText('The service is busy. Please try again shortly.')).toBeInTheDocument();
      expect(screen.getByRole('alertdialog')).toBeInTheDocument();
      // Still signed in, on the profile (behind the dialog).
      expect(screen.getByRole('heading', { level: 1, name: 'Profile Settings', hidden: true })).toBeInTheDocument();
    });
  });

  describe('Billing', () => {
    it('should list the credit history newest first with a label, the signed change and the date of each line', async () => {
      const { fetchMock } = openProfile('/profile?tab=billing');

      const list = await screen.findByRole('list', { name: 'Credit history, newest first' });
      const lines = within(list).getAllByRole('listitem');
      expect(lines.map((line) => line.querySelector('p')?.textContent)).toEqual([
        'Credits held for a generation',
        'Model training failed: credits returned',
        'Generation charged',
        'Creator Pack purchased',
        'Welcome credits',
      ]);
      expect(within(lines[0]!).getByText('Pending')).toBeInTheDocument();
      expect(within(lines[0]!).getByText('−5')).toBeInTheDocument();
      expect(within(lines[0]!).getByText('minus 5 credits')).toBeInTheDocument();
      expect(within(lines[1]!).getByText('Returned')).toBeInTheDocument();
      expect(within(lines[1]!).getByText('+30')).toBeInTheDocument();
      expect(within(lines[2]!).getByText('Charged')).toBeInTheDocument();
      expect(within(lines[2]!).getByText('0')).toBeInTheDocument();
      expect(within(lines[3]!).getByText('Purchase')).toBeInTheDocument();
      expect(within(lines[3]!).getByText('+125')).toBeInTheDocument();
      expect(within(lines[3]!).getByText('· $11.00')).toBeInTheDocument();
      expect(within(lines[4]!).getByText('Welcome credits', { selector: 'span' })).toBeInTheDocument();
      const time = lines[3]!.querySelector('time');
      expect(time).toHaveAttribute('dateTime', history[3]!.createdAt);
      expect(time?.textContent).toMatch(/2025/);
      expect(callsTo(fetchMock, 'GET', '/api/credit-history?page=1&pageSize=20')).toHaveLength(1);
      // One page only: no page controls.
      expect(screen.queryByRole('navigation', { name: 'Credit history pages' })).not.toBeInTheDocument();
    });

    it('should page through a long history', async () => {
      const first = Array.from({ length: 20 }, (_, index) => entry(index + 1));
      const second = [entry(21, { description: 'The oldest line' })];
      const { user, fetchMock } = openProfile('/profile?tab=billing', {
        'GET /api/credit-history?page=1&pageSize=20': () => jsonResponse(historyPage(first, 1, 21)),
        'GET /api/credit-history?page=2&pageSize=20': () => jsonResponse(historyPage(second, 2, 21)),
      });

      const pages = await screen.findByRole('navigation', { name: 'Credit history pages' });
      expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();
      expect(within(pages).getByRole('button', { name: 'Newer' })).toBeDisabled();

      await user.click(within(pages).getByRole('button', { name: 'Older' }));

      expect(await screen.findByText('The oldest line')).toBeInTheDocument();
      expect(within(pages).getByText('Page 2 of 2')).toBeInTheDocument();
      expect(within(pages).getByRole('button', { name: 'Older' })).toBeDisabled();
      expect(callsTo(fetchMock, 'GET', '/api/credit-history?page=2&pageSize=20')).toHaveLength(1);
    });

    it('should say when there is no history yet', async () => {
      openProfile('/profile?tab=billing', { 'GET /api/credit-history': () => jsonResponse(historyPage([])) });

      expect(await screen.findByRole('heading', { name: 'No credit history yet' })).toBeInTheDocument();
    });

    it('should offer to try again when the history cannot be loaded', async () => {
      let calls = 0;
      const { user } = openProfile('/profile?tab=billing', {
        'GET /api/credit-history': () => {
          calls += 1;
          return calls === 1
            ? errorResponse(503, 'COMMON.SERVICE_UNAVAILABLE', 'Busy')
            : jsonResponse(historyPage(history));
        },
      });

      await user.click(await screen.findByRole('button', { name: 'Try again' }));
      expect(await screen.findByText('Creator Pack purchased')).toBeInTheDocument();
    });

    it('should lead from Buy More Credits to /plans, which offers each package with a way to checkout', async () => {
      const { user, router } = openProfile('/profile?tab=billing');
      await screen.findByRole('list', { name: 'Credit history, newest first' });

      await user.click(screen.getByRole('link', { name: 'Buy More Credits' }));

      await screen.findByRole('heading', { level: 1, name: 'Credit Plans' });
      expect(router.state.location.pathname).toBe('/plans');
      expect(await screen.findByRole('heading', { level: 2, name: 'Creator Pack' })).toBeInTheDocument();
      expect(screen.getByText('Most Popular')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Buy Credits: Starter Pack' })).toHaveAttribute(
        'href',
        '/checkout/starter',
      );
      expect(screen.getByRole('link', { name: 'Buy Credits: Creator Pack' })).toHaveAttribute(
        'href',
        '/checkout/creator',
      );
      expect(screen.getByRole('link', { name: 'Buy Credits: Professional Pack' })).toHaveAttribute(
        'href',
        '/checkout/professional',
      );
      expect(screen.getByRole('link', { name: 'Back to Billing' })).toHaveAttribute('href', '/profile?tab=billing');
    });
  });

  describe('Security', () => {
    async function fillPasswords(
      user: ReturnType<typeof renderApp>['user'],
      current: string,
      next: string,
      confirm: string,
    ) {
      if (current) await user.type(screen.getByLabelText('Current Password'), current);
      if (next) await user.type(screen.getByLabelText('New Password'), next);
      if (confirm) await user.type(screen.getByLabelText('Confirm New Password'), confirm);
      await user.click(screen.getByRole('button', { name: 'Change Password' }));
    }

    it('should check the fields before sending', async () => {
      const { user, fetchMock } = openProfile('/profile?tab=security');
      await findHeading();

      await fillPasswords(user, '', 'short', 'other');
      expect(await screen.findByText('Current password is required')).toBeInTheDocument();
      expect(screen.getByLabelText('Current Password')).toHaveFocus();
      expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();

      await user.clear(screen.getByLabelText('New Password'));
      await user.clear(screen.getByLabelText('Confirm New Password'));
      await fillPasswords(user, 'old-secret', 'new-secret', 'new-secrex');
      expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
      expect(screen.getByLabelText('Confirm New Password')).toHaveAttribute('aria-invalid', 'true');
      expect(callsTo(fetchMock, 'POST', '/api/change-password')).toHaveLength(0);
    });

    it('should change the password, say "Password updated" and empty the form', async () => {
      const { user, fetchMock } = openProfile('/profile?tab=security', {
        'POST /api/change-password': () => jsonResponse({ message: 'Password updated' }),
      });
      await findHeading();

      await fillPasswords(user, 'old-secret', 'new-secret', 'new-secret');

      expect(await screen.findByText('Password updated')).toBeInTheDocument();
      expect(callsTo(fetchMock, 'POST', '/api/change-password').map((call) => call.body)).toEqual([
        { currentPassword: 'old-secret', newPassword: 'new-secret', confirmPassword: 'new-secret' },
      ]);
      expect(screen.getByLabelText('Current Password')).toHaveValue('');
      expect(screen.getByLabelText('New Password')).toHaveValue('');
      expect(screen.getByLabelText('Confirm New Password')).toHaveValue('');
      // Still signed in.
      expect(screen.getByRole('heading', { level: 1, name: 'Profile Settings' })).toBeInTheDocument();
    });

    it('should say a wrong current password under that field, staying signed in', async () => {
      const { user } = openProfile('/profile?tab=security', {
        'POST /api/change-password': () =>
          errorResponse(403, 'AUTH.WRONG_PASSWORD', 'Current password is incorrect', [
            { path: 'currentPassword', message: 'Current password is incorrect' },
          ]),
      });
      await findHeading();

      await fillPasswords(user, 'not-it', 'new-secret', 'new-secret');

      const current = screen.getByLabelText('Current Password');
      expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
      expect(current).toHaveAttribute('aria-invalid', 'true');
      expect(current).toHaveFocus();
      expect(screen.queryByText('Password Change Failed')).not.toBeInTheDocument();
      expect(screen.getByLabelText('New Password')).toHaveValue('new-secret');
    });

    it('should say "Password Change Failed" when the server fails without a reason', async () => {
      const { user } = openProfile('/profile?tab=security', {
        'POST /api/change-password': () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
      });
      await findHeading();

      await fillPasswords(user, 'old-secret', 'new-secret', 'new-secret');

      expect(await screen.findByText('Password Change Failed')).toBeInTheDocument();
      expect(screen.getByText('Failed to update password. Please try again.')).toBeInTheDocument();
    });
  });

  describe('Help & Support', () => {
    it('should answer the common questions from the product’s real rules', async () => {
      const { user } = openProfile('/profile?tab=help');
      await findHeading();

      for (const question of [
        'How do credits work?',
        'How long does training take?',
        'What if a training or a generation fails?',
        'What happens when I delete my account?',
      ]) {
        expect(screen.getByText(question)).toBeInTheDocument();
      }
      await user.click(screen.getByText('How do credits work?'));
      expect(screen.getByText(/starts with 5 free credits/)).toBeVisible();
      expect(screen.getByText(/costs 30 credits/)).toBeInTheDocument();
      expect(screen.getByText(/costs 5 credits per run, whether it makes 1 or 4 images/)).toBeInTheDocument();
      expect(screen.getByText(/About 15-20 minutes/)).toBeInTheDocument();
      expect(screen.getByText(/It costs nothing/)).toBeInTheDocument();
    });

    it('should write to the support address the server names', async () => {
      openProfile('/profile?tab=help');

      const contact = await screen.findByRole('link', { name: 'Contact Support' });
      expect(contact).toHaveAttribute('href', 'mailto:help@likeness.example?subject=Likeness%20support%20request');
      expect(within(screen.getByRole('main')).getByText('help@likeness.example')).toBeInTheDocument();
    });

    it('should offer to try again when the support address cannot be loaded', async () => {
      let calls = 0;
      const { user } = openProfile('/profile?tab=help', {
        'GET /api/config': () => {
          calls += 1;
          return calls === 1
            ? new Response('', { status: 502, statusText: 'Bad Gateway' })
            : jsonResponse({ supportEmail: 'help@likeness.example' });
        },
      });

      await user.click(await screen.findByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('link', { name: 'Contact Support' })).toBeInTheDocument();
    });
  });
});
