import type {
  AdminGenerationJob,
  AdminPayment,
  AdminSummary,
  AdminTimeseries,
  AdminUser,
  AdminUserDetail,
  CurrentUser,
} from '@likeness/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { createAppQueryClient } from '@/app/query-client';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp, type ApiHandlers } from '@/test/render-app';
import { avatarsPage } from '@/test/media-fixtures';
import { AdminSecurityTab } from './admin-security-tab';

const admin: CurrentUser = { id: 1, username: 'admin', email: 'admin@likeness.test', credits: 0, role: 'admin' };
const created = '2026-01-02T03:04:05.000Z';

const summary: AdminSummary = {
  totalUsers: 3,
  revenue: 27.5,
  revenueCents: 2750,
  totalPayments: 2,
  totalGenerations: 7,
  generations: { completed: 5, failed: 1, inProgress: 1, failureRate: 1 / 6 },
  trainings: { total: 2, completed: 1, failed: 1, inProgress: 0, failureRate: 0.5 },
  creditsOutstanding: 180,
  lastEventAt: created,
};

function user(id: number, overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id,
    username: `user${id}`,
    email: `user${id}@example.com`,
    role: 'user',
    credits: 5,
    createdAt: created,
    ...overrides,
  };
}

const payments: AdminPayment[] = [
  {
    id: 'pi_1',
    userId: 2,
    amount: 1100,
    credits: 125,
    status: 'succeeded',
    refundedAmount: 0,
    packageId: 'creator',
    createdAt: created,
  },
  {
    id: 'pi_2',
    userId: 3,
    amount: 500,
    credits: 50,
    status: 'refunded',
    refundedAmount: 500,
    packageId: 'starter',
    createdAt: created,
  },
];

const longPrompt = 'user2 as an astronaut floating above the moon, cinematic light, high quality portrait, detailed';
const jobs: AdminGenerationJob[] = [
  {
    id: 'job-1',
    userId: 2,
    promptText: longPrompt,
    status: 'failed',
    numOutputs: 4,
    failureReason: 'The image provider timed out',
    durationMs: 12_000,
    createdAt: created,
    finishedAt: created,
  },
];

const timeseries: AdminTimeseries = {
  days: [
    { date: '2026-01-01', signups: 1, revenueCents: 1100, generations: 2, failedJobs: 0 },
    { date: '2026-01-02', signups: 2, revenueCents: 500, generations: 5, failedJobs: 1 },
  ],
};

function detailOf(target: AdminUser, balance: number): AdminUserDetail {
  return {
    user: { ...target, credits: balance },
    balance: { balance, available: balance },
    payments: [payments[0]!],
    models: [
      {
        id: 4,
        modelName: null,
        status: 'failed',
        failureReason: 'Training images were too small',
        createdAt: created,
        finishedAt: created,
      },
    ],
    recentJobs: jobs,
  };
}

function adminApi(handlers: ApiHandlers = {}, signedIn: CurrentUser = admin) {
  return mockApi({
    user: signedIn,
    handlers: {
      'GET /api/admin/summary': () => jsonResponse(summary),
      'GET /api/admin/timeseries': () => jsonResponse(timeseries),
      'GET /api/admin/users': () => jsonResponse({ items: [user(2), user(3)], nextCursor: null }),
      'GET /api/admin/payments': () => jsonResponse({ items: payments, nextCursor: null }),
      'GET /api/admin/generation-jobs': () => jsonResponse({ items: jobs, nextCursor: null }),
      ...handlers,
    },
  });
}

async function openAdmin(url = '/admin') {
  const app = renderApp(url);
  await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
  return app;
}

/** The URLs the mock was asked for on one path, with their query strings. */
function urlsOf(fetchMock: ReturnType<typeof mockApi>, path: string): string[] {
  return fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.split('?')[0] === path);
}

describe('/admin access', () => {
  it('should show Access Denied to a signed-in user who is not the administrator, and no Admin link', async () => {
    const fetchMock = adminApi({}, alice);
    const { user, router } = renderApp('/admin');

    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access the admin area.")).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(urlsOf(fetchMock, '/api/admin/summary')).toEqual([]);

    await user.click(screen.getByRole('button', { name: /^Account menu/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Admin' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('link', { name: 'Return to Dashboard' }));
    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('should send a visitor from /admin to the auth screen', async () => {
    mockApi();
    const { router } = renderApp('/admin');

    await screen.findByRole('tab', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('should show Access Denied when the server refuses the admin calls', async () => {
    adminApi({
      'GET /api/admin/summary': () =>
        errorResponse(403, 'AUTH.FORBIDDEN', "You don't have permission to access the admin area."),
    });
    renderApp('/admin');

    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('should give the administrator the Admin link in the header and the account menu', async () => {
    adminApi({
      'GET /api/avatars': () => jsonResponse(avatarsPage([])),
      'GET /api/custom-models': () => jsonResponse([]),
    });
    const { user, router } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, admin!' });

    const [headerNav] = screen.getAllByRole('navigation', { name: 'Main' });
    expect(within(headerNav!).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');

    await user.click(screen.getByRole('button', { name: /^Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Admin' }));
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    expect(router.state.location.pathname).toBe('/admin');
  });
});

describe('/admin', () => {
  it('should show the totals, the users and every tab', async () => {
    adminApi();
    const { user, router } = await openAdmin();

    const totals = within(await screen.findByRole('region', { name: 'Totals' }));
    expect(totals.getByText('Total Users').nextSibling).toHaveTextContent('3');
    expect(totals.getByText('Revenue').nextSibling).toHaveTextContent('$27.50');
    expect(totals.getByText('Total Generations').nextSibling).toHaveTextContent('7');
    expect(totals.getByText('Generation failure rate').nextSibling).toHaveTextContent('16.7%');
    expect(totals.getByText('Credits outstanding').nextSibling).toHaveTextContent('180');

    const usersTable = await screen.findByRole('table', { name: 'Users, page 1' });
    const headers = within(usersTable)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['ID', 'Username', 'Email', 'Credits', 'Created']);
    expect(within(usersTable).getByRole('button', { name: 'user2' })).toBeInTheDocument();
    expect(within(usersTable).getByText('user3@example.com')).toBeInTheDocument();
    expect(within(usersTable).getAllByText(/ago$/)).toHaveLength(2);

    await user.click(screen.getByRole('tab', { name: 'Payments' }));
    expect(router.state.location.search).toBe('?tab=payments');
    const paymentsTable = await screen.findByRole('table', { name: 'Payments, page 1' });
    expect(within(paymentsTable).getByText('$11.00')).toBeInTheDocument();
    expect(within(paymentsTable).getByText('success')).toBeInTheDocument();
    expect(within(paymentsTable).getByText('refunded')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Generation Jobs' }));
    const jobsTable = await screen.findByRole('table', { name: 'Generation jobs, page 1' });
    expect(within(jobsTable).getByTitle(longPrompt)).toHaveTextContent(/…/);
    expect(within(jobsTable).getByText('failed')).toBeInTheDocument();
    expect(within(jobsTable).getByText('The image provider timed out')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(await screen.findByText('Administrator')).toBeInTheDocument();
    expect(screen.getByText('admin@likeness.test')).toBeInTheDocument();
  });

  it('should page with the server’s cursors, go back without one, and start again on a new search', async () => {
    const fetchMock = adminApi({
      'GET /api/admin/users': (init) => {
        void init;
        const url = String(fetchMock.mock.calls.at(-1)![0]);
        const cursor = new URL(url, 'http://x').searchParams.get('cursor');
        return jsonResponse(
          cursor === 'page2'
            ? { items: [user(5)], nextCursor: null }
            : { items: [user(2), user(3)], nextCursor: 'page2' },
        );
      },
    });
    const { user: clicker } = await openAdmin();
    await screen.findByRole('table', { name: 'Users, page 1' });
    const pager = within(screen.getByRole('navigation', { name: 'Users pages' }));
    expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await clicker.click(pager.getByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'user5' });
    expect(screen.getByRole('table', { name: 'Users, page 2' })).toBeInTheDocument();
    expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();

    await clicker.click(pager.getByRole('button', { name: 'Previous' }));
    await screen.findByRole('button', { name: 'user2' });
    expect(urlsOf(fetchMock, '/api/admin/users')).toEqual([
      '/api/admin/users?sort=newest',
      '/api/admin/users?sort=newest&cursor=page2',
      '/api/admin/users?sort=newest',
    ]);

    await clicker.click(pager.getByRole('button', { name: 'Next' }));
    await screen.findByRole('table', { name: 'Users, page 2' });
    await clicker.type(screen.getByLabelText('Search users'), 'user5');
    // Asked once the typing paused, from the first page.
    await waitFor(() =>
      expect(urlsOf(fetchMock, '/api/admin/users')).toContain('/api/admin/users?q=user5&sort=newest'),
    );
    expect(urlsOf(fetchMock, '/api/admin/users').filter((url) => url.includes('q='))).toEqual([
      '/api/admin/users?q=user5&sort=newest',
    ]);
    expect(await screen.findByRole('table', { name: 'Users, page 1' })).toBeInTheDocument();
  });

  it('should filter payments by status', async () => {
    const fetchMock = adminApi();
    const { user } = await openAdmin('/admin?tab=payments');
    await screen.findByRole('table', { name: 'Payments, page 1' });

    await user.selectOptions(screen.getByLabelText('Status'), 'disputed');

    await waitFor(() =>
      expect(urlsOf(fetchMock, '/api/admin/payments')).toContain('/api/admin/payments?sort=newest&status=disputed'),
    );
  });

  it('should export the page on screen as a CSV file', async () => {
    adminApi({
      'GET /api/admin/generation-jobs': () =>
        jsonResponse({ items: [{ ...jobs[0]!, promptText: '=HYPERLINK("x"), me' }], nextCursor: null }),
    });
    const files: Blob[] = [];
    const downloads: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      files.push(blob as Blob);
      return 'blob:csv';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const { user } = await openAdmin('/admin?tab=jobs');
    await screen.findByRole('table', { name: 'Generation jobs, page 1' });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    expect(downloads).toEqual(['likeness-generation-jobs-page-1.csv']);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(files[0]!);
    });
    const [header, row] = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe('id,userId,promptText,status,numOutputs,failureReason,durationMs,createdAt,finishedAt');
    expect(row).toBe(
      `job-1,2,"'=HYPERLINK(""x""), me",failed,4,The image provider timed out,12000,${created},${created}`,
    );
  });

  it('should open a user, refuse a bad adjustment, say what the server refused, and apply one once', async () => {
    // The ledger's balance; the admin views (read models) lag behind it and still say 5.
    let balance = 5;
    const adjustments: unknown[] = [];
    let answer: 'insufficient' | 'down' | 'ok' = 'insufficient';
    const fetchMock = adminApi({
      'GET /api/admin/users/2': () => jsonResponse(detailOf(user(2), 5)),
      'POST /api/admin/users/2/credits': (init) => {
        const body = JSON.parse(String(init?.body)) as { delta: number };
        adjustments.push(body);
        if (answer === 'insufficient') {
          return errorResponse(
            402,
            'BILLING.INSUFFICIENT_CREDITS',
            'The user does not have that many credits to deduct',
          );
        }
        if (answer === 'down') return errorResponse(503, 'COMMON.SERVICE_UNAVAILABLE', 'Billing is not answering');
        balance += body.delta;
        return jsonResponse({ userId: 2, delta: body.delta, balance, available: balance });
      },
    });
    const { user: clicker } = await openAdmin();
    await clicker.click(await screen.findByRole('button', { name: 'user2' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'user2' }));
    await dialog.findByText('Training images were too small');
    expect(dialog.getByText('The image provider timed out')).toBeInTheDocument();
    expect(dialog.getByText('Training failed')).toBeInTheDocument();

    await clicker.type(dialog.getByLabelText('Credits'), '0');
    await clicker.type(dialog.getByLabelText('Reason'), 'ok');
    await clicker.click(dialog.getByRole('button', { name: 'Adjust Credits' }));
    expect(
      await dialog.findByText('Enter a whole number of credits from -100000 to 100000, not 0'),
    ).toBeInTheDocument();
    expect(dialog.getByText('Reason must be at least 3 characters')).toBeInTheDocument();
    expect(adjustments).toEqual([]);

    await clicker.clear(dialog.getByLabelText('Credits'));
    await clicker.type(dialog.getByLabelText('Credits'), '-50');
    await clicker.clear(dialog.getByLabelText('Reason'));
    await clicker.type(dialog.getByLabelText('Reason'), 'Refund for a bad run');
    await clicker.click(dialog.getByRole('button', { name: 'Adjust Credits' }));
    expect(await dialog.findByText('The user does not have that many credits to deduct')).toBeInTheDocument();

    // Billing does not answer; the retry of the same adjustment carries the same request id.
    answer = 'down';
    await clicker.clear(dialog.getByLabelText('Credits'));
    await clicker.type(dialog.getByLabelText('Credits'), '20');
    await clicker.click(dialog.getByRole('button', { name: 'Adjust Credits' }));
    expect(await dialog.findByText('Billing is not answering')).toBeInTheDocument();
    answer = 'ok';
    await clicker.click(dialog.getByRole('button', { name: 'Adjust Credits' }));

    expect(await screen.findByText('Credits adjusted')).toBeInTheDocument();
    expect(screen.getByText('Granted 20 credits to user2. New balance: 25.')).toBeInTheDocument();
    await waitFor(() => expect(dialog.getByText('Balance').nextSibling).toHaveTextContent('25'));
    const [refused, failed, retried] = adjustments as { requestId: string; delta: number; reason: string }[];
    expect(failed).toEqual(retried);
    expect(refused!.requestId).not.toBe(failed!.requestId);
    expect(retried).toEqual({ delta: 20, reason: 'Refund for a bad run', requestId: expect.any(String) });
    // The details and the list load again, and show the ledger's answer over the lagging read model.
    expect(urlsOf(fetchMock, '/api/admin/users/2').length).toBeGreaterThan(1);
    expect(urlsOf(fetchMock, '/api/admin/users').length).toBeGreaterThan(1);
    await clicker.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const usersTable = await screen.findByRole('table', { name: 'Users, page 1' });
    const row = within(usersTable).getByRole('button', { name: 'user2' }).closest('tr')!;
    expect(within(row).getByText('25')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/admin/users/2/credits')).toHaveLength(3);
  });
});

describe(AdminSecurityTab.name, () => {
  function renderSecurity(bannerMs: number) {
    const fetchMock = adminApi({
      'POST /api/admin/change-password': (init) => {
        const body = JSON.parse(String(init?.body)) as { currentPassword: string };
        return body.currentPassword === 'Old-Passw0rd!x'
          ? jsonResponse({ message: 'Password updated' })
          : errorResponse(403, 'AUTH.WRONG_PASSWORD', 'Current password is incorrect', [
              { path: 'currentPassword', message: 'Current password is incorrect' },
            ]);
      },
    });
    render(
      <AppProviders queryClient={createAppQueryClient()}>
        <AdminSecurityTab admin={admin} bannerMs={bannerMs} />
      </AppProviders>,
    );
    return { fetchMock, user: userEvent.setup() };
  }

  async function submit(user: ReturnType<typeof userEvent.setup>, current: string, next: string, confirm = next) {
    for (const [label, value] of [
      ['Current Password', current],
      ['New Password', next],
      ['Confirm New Password', confirm],
    ] as const) {
      await user.clear(screen.getByLabelText(label));
      if (value) await user.type(screen.getByLabelText(label), value);
    }
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
  }

  it('should check the administrator rules before sending, with the exact messages', async () => {
    const { user, fetchMock } = renderSecurity(5000);

    await submit(user, 'x', 'Short1!');
    expect(await screen.findByText('Password must be at least 12 characters')).toBeInTheDocument();
    await submit(user, 'x', 'Password-123A');
    expect(await screen.findByText('Password contains common weak patterns')).toBeInTheDocument();
    await submit(user, 'x', 'Tr1cky-Horse-9', 'Tr1cky-Horse-8');
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/admin/change-password')).toEqual([]);

    await submit(user, 'wrong-one', 'Tr1cky-Horse-9');
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
  });

  it('should show the success banner after a change and hide it after its time', async () => {
    const { user } = renderSecurity(300);

    await submit(user, 'Old-Passw0rd!x', 'Tr1cky-Horse-9');

    expect(await screen.findByText('Your password has been updated successfully.')).toBeInTheDocument();
    expect(screen.getByText('Password Updated')).toBeInTheDocument();
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
    await waitFor(() =>
      expect(screen.queryByText('Your password has been updated successfully.')).not.toBeInTheDocument(),
    );
  });
});
