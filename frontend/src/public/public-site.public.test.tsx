// The public pages as their own bundle builds them (vitest's "public" project applies
// build-tools/public-build.ts): the light router, the `.public` twins. Whether the built pages
// take over their prerendered HTML cleanly is checked in a browser
// (gateway/test/browser/public-site.browser-spec.ts).
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CurrentUser } from '@likeness/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';
import { loadPublicPage, PublicSite } from './public-site';
import { resetApiData } from './use-api-data';

const alice: CurrentUser = { id: 2, username: 'alice', email: 'alice@example.com', credits: 5, role: 'user' };

const packages = [
  {
    id: 'starter',
    name: 'Starter Pack',
    description: 'Try it',
    credits: 50,
    price: 5,
    value: 'No bonus',
    popular: false,
  },
  { id: 'creator', name: 'Creator Pack', description: 'Loved', credits: 125, price: 11, value: '20%', popular: true },
];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The API as the page sees it: each GET path's answer, a visitor unless told; anything else is a 404. */
function mockApi(answers: Record<string, () => Response>) {
  const all: Record<string, () => Response> = { '/api/user': () => json({ message: 'Signed out' }, 401), ...answers };
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    const answer = all[path] ?? all[path.split('?')[0]!];
    return answer ? answer() : json({ message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function renderPublicPage(pathname: string) {
  const Page = await loadPublicPage(pathname);
  const user = userEvent.setup();
  render(<PublicSite location={{ pathname, search: '', hash: '', state: null }} Page={Page} />);
  return { user };
}

afterEach(() => resetApiData());

describe('the public pages without the full app', () => {
  it("should show the server's packs on the landing page, each leading to /credits by a plain link", async () => {
    mockApi({ '/api/credit-packages': () => json(packages) });
    await renderPublicPage('/');

    const creator = await screen.findByRole('article', { name: 'Creator Pack' });
    expect(within(creator).getByText('$11')).toBeInTheDocument();
    expect(within(creator).getByText('Best Value')).toBeInTheDocument();
    expect(within(creator).getByRole('link', { name: 'Buy Credits: Creator Pack' })).toHaveAttribute(
      'href',
      '/credits',
    );
    expect(screen.getAllByRole('link', { name: 'Log In' })[0]).toHaveAttribute('href', '/auth');
  });

  it('should offer to try again when the packs answer is not what the page can draw', async () => {
    const fetchMock = mockApi({ '/api/credit-packages': () => json([{ id: 'starter', price: 'five' }]) });
    const { user } = await renderPublicPage('/');

    expect(await screen.findByText("We couldn't load the credit packs.")).toBeInTheDocument();
    mockApi({ '/api/credit-packages': () => json(packages) });
    await user.click(screen.getByRole('button', { name: /Try again/ }));

    expect(await screen.findByRole('article', { name: 'Starter Pack' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/credit-packages', { credentials: 'include' });
  });

  it('should welcome a signed-in user back with their 4 newest avatars', async () => {
    const newest = [5, 4, 3, 2].map((id) => makeAvatar(id, { promptText: `prompt ${id}` }));
    const fetchMock = mockApi({
      '/api/user': () => json(alice),
      '/api/avatars': () => json(avatarsPage(newest, { nextCursor: 'next', total: 5 })),
    });
    await renderPublicPage('/');

    expect(await screen.findByText('Welcome back, alice! Here are your recent avatars:')).toBeInTheDocument();
    const shown = screen.getAllByRole('img', { name: /^prompt \d$/ }).map((image) => image.getAttribute('alt'));
    expect(shown).toEqual(['prompt 5', 'prompt 4', 'prompt 3', 'prompt 2']);
    expect(screen.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/gallery');
    expect(screen.getAllByRole('link', { name: 'Go to Dashboard' })[0]).toHaveAttribute('href', '/dashboard');
    expect(fetchMock).toHaveBeenCalledWith('/api/avatars?limit=4', { credentials: 'include' });
  });

  it('should copy an example prompt with the toast and the check mark', async () => {
    mockApi({});
    const { user } = await renderPublicPage('/');

    await user.click(await screen.findByRole('button', { name: 'Copy the Astronaut prompt' }));

    expect(await navigator.clipboard.readText()).toMatch(/^astronaut floating in orbit/);
    expect(await screen.findByText('Prompt copied!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Astronaut prompt copied' })).toBeInTheDocument();
  });

  it('should show the support address from the server on a legal page', async () => {
    mockApi({ '/api/config': () => json({ supportEmail: 'help@likeness.example' }) });
    await renderPublicPage('/privacy-policy');

    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: 'help@likeness.example' })[0]).toHaveAttribute(
        'href',
        'mailto:help@likeness.example',
      ),
    );
  });

  it('should take a 401 for a visitor, reading the answer to its end so the page goes quiet', async () => {
    const signedOut = json({ message: 'Signed out' }, 401);
    mockApi({ '/api/user': () => signedOut });
    await renderPublicPage('/');

    await waitFor(() => expect(signedOut.bodyUsed).toBe(true));
    expect(screen.getAllByRole('link', { name: 'Get Started' })[0]).toHaveAttribute('href', '/auth?tab=register');
  });

  it('should refuse a path that is not a public page', async () => {
    await expect(loadPublicPage('/dashboard')).rejects.toThrow('/dashboard is not a public page');
  });
});
