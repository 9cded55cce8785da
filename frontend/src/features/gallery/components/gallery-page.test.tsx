import type { Avatar } from '@likeness/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OUTPUT_FORMAT_STORAGE_KEY } from '@/hooks/use-output-format';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';
import { alice, type ApiHandlers, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';
import { formatCreatedAt } from '@/lib/avatars/format-date';

async function openGallery(avatars: Avatar[], handlers: ApiHandlers = {}) {
  const fetchMock = mockApi({
    user: alice,
    handlers: {
      'GET /api/avatars': () => jsonResponse(avatarsPage(avatars)),
      'GET /api/avatars?favourites=true': () => jsonResponse(avatarsPage(avatars.filter((avatar) => avatar.favourite))),
      ...handlers,
    },
  });
  const app = renderApp('/gallery');
  await screen.findByRole('tab', { name: /^Recent/ });
  return { ...app, fetchMock };
}

/** The prompts of the tiles in the visible tab, in order. */
function visiblePrompts() {
  const panel = screen.getByRole('tabpanel');
  return within(panel)
    .getAllByRole('article')
    .map((tile) => tile.querySelector('.line-clamp-2')?.textContent);
}

const tileOf = (prompt: RegExp) => screen.getByRole('button', { name: prompt }).closest('article')!;

async function openDetails(user: ReturnType<typeof renderApp>['user'], prompt: string | RegExp) {
  await user.click(screen.getByRole('button', { name: prompt }));
  return within(await screen.findByRole('dialog', { name: 'Avatar Details' }));
}

/** Records downloads instead of letting jsdom try to navigate. */
function captureDownloads() {
  const downloads: { href: string; filename: string }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ href: this.getAttribute('href') ?? '', filename: this.download });
  });
  const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:avatar');
  return { downloads, createObjectURL };
}

function imageResponse(type = 'image/png') {
  return new Response('image-bytes', { status: 200, headers: { 'Content-Type': type } });
}

function stubShare(share: (data: ShareData) => Promise<void>) {
  const mock = vi.fn(share);
  Object.defineProperty(navigator, 'share', { configurable: true, writable: true, value: mock });
  return mock;
}

const astronaut = makeAvatar(3, { promptText: 'ada as an astronaut floating above the Earth' });

describe('GalleryPage', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  afterEach(() => {
    Reflect.deleteProperty(navigator, 'share');
  });

  it("should show the 8 newest under Recent and every avatar under All, in the server's order", async () => {
    const dated = Array.from({ length: 9 }, (_, index) => makeAvatar(index + 1, { promptText: `prompt ${index + 1}` }));
    const undated = makeAvatar(10, { promptText: 'prompt undated', createdAt: null });
    const { user } = await openGallery([...dated].reverse().concat(undated));

    expect(screen.getByRole('heading', { level: 1, name: 'Your Avatar Gallery' })).toBeInTheDocument();
    const recentTab = screen.getByRole('tab', { name: 'Recent (8)' });
    expect(recentTab).toHaveAttribute('aria-selected', 'true');
    expect(visiblePrompts()).toEqual([9, 8, 7, 6, 5, 4, 3, 2].map((id) => `prompt ${id}`));

    await user.click(screen.getByRole('tab', { name: 'All (10)' }));

    expect(visiblePrompts()).toEqual([...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((id) => `prompt ${id}`), 'prompt undated']);
    expect(tileOf(/prompt undated/)).toHaveTextContent('Recent');
    const thumbnail = tileOf(/prompt 9/).querySelector('img');
    expect(thumbnail).toHaveAttribute('src', dated[8]!.thumbnailUrl);
    expect(thumbnail).toHaveAttribute('loading', 'lazy');
  });

  it('should count fewer than 8 avatars the same in both tabs', async () => {
    await openGallery([makeAvatar(1), makeAvatar(2), makeAvatar(3)]);

    expect(screen.getByRole('tab', { name: 'Recent (3)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All (3)' })).toBeInTheDocument();
  });

  it('should point to the models page when there are no avatars yet', async () => {
    mockApi({ user: alice, handlers: { 'GET /api/avatars': () => jsonResponse(avatarsPage([])) } });
    renderApp('/gallery');

    expect(await screen.findByRole('heading', { name: 'No avatars created yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Custom Models' })).toHaveAttribute('href', '/models');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });

  it('should show a loading state, then offer a retry when the avatars cannot be loaded', async () => {
    let attempts = 0;
    mockApi({
      user: alice,
      handlers: {
        'GET /api/avatars': () =>
          ++attempts === 1 ? errorResponse(500, 'COMMON.INTERNAL', 'Boom') : jsonResponse(avatarsPage([astronaut])),
      },
    });
    const { user } = renderApp('/gallery');

    expect(await screen.findByRole('status', { name: 'Loading your avatars...' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('tab', { name: 'Recent (1)' })).toBeInTheDocument();
  });

  it('should open the details with the full image, the prompt and the created time', async () => {
    const { user } = await openGallery([astronaut]);

    const card = screen.getByRole('button', { name: /ada as an astronaut/ });
    const dialog = await openDetails(user, /ada as an astronaut/);

    expect(dialog.getByRole('img', { name: `Avatar: ${astronaut.promptText}` })).toHaveAttribute(
      'src',
      astronaut.imageUrl,
    );
    expect(dialog.getByText(astronaut.promptText)).toBeInTheDocument();
    expect(dialog.getByText(formatCreatedAt(astronaut.createdAt)!)).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Download' })).toBeInTheDocument();

    await user.keyboard('{Escape}');

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(card).toHaveFocus());
  });

  it('should copy the prompt', async () => {
    const { user } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Copy prompt' }));

    expect(await screen.findByText('Prompt copied')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(astronaut.promptText);
    expect(dialog.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('should say there is nothing to copy when the avatar has no prompt', async () => {
    const { user } = await openGallery([makeAvatar(4, { promptText: '' })]);
    const dialog = await openDetails(user, /No prompt/);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');

    await user.click(dialog.getByRole('button', { name: 'Copy prompt' }));

    expect(await screen.findByText('No prompt available')).toBeInTheDocument();
    expect(screen.getByText("This avatar doesn't have a prompt to copy.")).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
  });

  it('should say "Copy failed" when the clipboard refuses the prompt', async () => {
    const { user } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Denied'));

    await user.click(dialog.getByRole('button', { name: 'Copy prompt' }));

    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(screen.getByText('There was an error copying the prompt.')).toBeInTheDocument();
  });

  it('should delete the avatar after "Are you sure?" and close the details', async () => {
    let stored = [astronaut, makeAvatar(1, { promptText: 'ada as a pirate' })];
    const { user, fetchMock } = await openGallery(stored, {
      'GET /api/avatars': () => jsonResponse(avatarsPage(stored)),
      'DELETE /api/avatars/3': () => {
        stored = stored.filter(({ id }) => id !== 3);
        return jsonResponse({ deleted: true });
      },
    });
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Are you sure?' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/avatars/3')).toHaveLength(0);
    await user.click(confirm.getByRole('button', { name: 'Delete avatar' }));

    expect(await screen.findByText('Avatar deleted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', '/api/avatars/3')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /ada as an astronaut/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /ada as a pirate/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveFocus());
  });

  it('should keep the avatar when the deletion is cancelled', async () => {
    const { user, fetchMock } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Avatar Details' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', '/api/avatars/3')).toHaveLength(0);
  });

  it('should say "Error" when the avatar cannot be deleted', async () => {
    const { user } = await openGallery([astronaut], {
      'DELETE /api/avatars/3': () => errorResponse(500, 'COMMON.INTERNAL', 'Boom'),
    });
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete avatar' }));

    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to delete avatar. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Avatar Details' })).toBeInTheDocument();
  });

  it('should download the avatar converted to the chosen format and remember the format', async () => {
    const { downloads } = captureDownloads();
    const { user, fetchMock } = await openGallery([astronaut], {
      'GET /api/image-formatter': () => imageResponse('image/jpeg'),
    });
    const dialog = await openDetails(user, /ada as an astronaut/);
    expect(dialog.getByLabelText('Download format')).toHaveValue('png');

    await user.selectOptions(dialog.getByLabelText('Download format'), 'JPEG');
    await user.click(dialog.getByRole('button', { name: 'Download' }));

    expect(await screen.findByText('Download started')).toBeInTheDocument();
    expect(screen.getByText('Your avatar is downloading as JPEG.')).toBeInTheDocument();
    const formatterCalls = fetchMock.mock.calls.filter(([input]) => String(input).startsWith('/api/image-formatter'));
    expect(formatterCalls.map(([input]) => input)).toEqual([
      `/api/image-formatter?url=${encodeURIComponent(astronaut.imageUrl)}&format=jpeg`,
    ]);
    expect(formatterCalls[0]![1]).toMatchObject({ credentials: 'include' });
    expect(downloads).toEqual([{ href: 'blob:avatar', filename: 'likeness-avatar-3.jpeg' }]);
    expect(window.localStorage.getItem(OUTPUT_FORMAT_STORAGE_KEY)).toBe('jpeg');
  });

  it('should start from the stored format', async () => {
    window.localStorage.setItem(OUTPUT_FORMAT_STORAGE_KEY, 'webp');
    captureDownloads();
    const { user, fetchMock } = await openGallery([astronaut], {
      'GET /api/image-formatter': () => imageResponse('image/webp'),
    });
    const dialog = await openDetails(user, /ada as an astronaut/);

    expect(dialog.getByLabelText('Download format')).toHaveValue('webp');
    await user.click(dialog.getByRole('button', { name: 'Download' }));

    expect(await screen.findByText('Your avatar is downloading as WebP.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith('&format=webp'))).toBe(true);
  });

  it('should download the original image when the conversion fails', async () => {
    const { downloads } = captureDownloads();
    const { user, fetchMock } = await openGallery([astronaut], {
      'GET /api/image-formatter': () => errorResponse(502, 'COMMON.UNAVAILABLE', 'Media is down'),
      [`GET ${astronaut.imageUrl}`]: () => imageResponse('image/png'),
    });
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Download' }));

    expect(await screen.findByText('Download started')).toBeInTheDocument();
    expect(screen.getByText(/downloading in its original format \(PNG\)/)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', astronaut.imageUrl)).toHaveLength(1);
    expect(downloads).toEqual([{ href: 'blob:avatar', filename: 'likeness-avatar-3.png' }]);
  });

  it('should open the image in a new tab when neither download works', async () => {
    const { downloads } = captureDownloads();
    const tab = { opener: window } as unknown as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(tab);
    const { user } = await openGallery([astronaut], {
      'GET /api/image-formatter': () => errorResponse(502, 'COMMON.UNAVAILABLE', 'Media is down'),
      [`GET ${astronaut.imageUrl}`]: () => errorResponse(410, 'MEDIA.LINK_EXPIRED', 'This link has expired.'),
    });
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Download' }));

    expect(await screen.findByText('Image opened in a new tab')).toBeInTheDocument();
    expect(open).toHaveBeenCalledWith(astronaut.imageUrl, '_blank');
    expect(tab.opener).toBeNull();
    expect(downloads).toEqual([]);
  });

  it('should say "Download failed" when nothing works', async () => {
    captureDownloads();
    vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = await openGallery([astronaut], {
      'GET /api/image-formatter': () => errorResponse(502, 'COMMON.UNAVAILABLE', 'Media is down'),
      [`GET ${astronaut.imageUrl}`]: () => errorResponse(410, 'MEDIA.LINK_EXPIRED', 'This link has expired.'),
    });
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Download' }));

    expect(await screen.findByText('Download failed')).toBeInTheDocument();
    expect(screen.getByText('There was an error downloading your avatar. Please try again.')).toBeInTheDocument();
  });

  it('should share the absolute link with the device share function', async () => {
    const share = stubShare(async () => {});
    const { user } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Shared successfully')).toBeInTheDocument();
    expect(share).toHaveBeenCalledWith(
      expect.objectContaining({ url: `${window.location.origin}/api/shared/avatars/token-3` }),
    );
  });

  it('should copy the absolute link when the device cannot share', async () => {
    const { user } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(`${window.location.origin}/api/shared/avatars/token-3`);
  });

  it('should do nothing when the user closes the share sheet', async () => {
    stubShare(async () => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    const { user } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');

    await user.click(dialog.getByRole('button', { name: 'Share' }));

    await waitFor(() => expect(dialog.getByRole('button', { name: 'Share' })).toBeEnabled());
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument();
    expect(screen.queryByText('Share failed')).not.toBeInTheDocument();
  });

  it('should copy the link when sharing fails, and say "Share failed" when copying fails too', async () => {
    stubShare(async () => {
      throw new DOMException('Not allowed', 'NotAllowedError');
    });
    const { user } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);

    await user.click(dialog.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Link copied')).toBeInTheDocument();

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Denied'));
    await user.click(dialog.getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Share failed')).toBeInTheDocument();
    expect(screen.getByText('There was an error sharing your avatar.')).toBeInTheDocument();
  });

  it('should say "Copy failed" when there is no share function and the clipboard refuses the link', async () => {
    const { user } = await openGallery([astronaut]);
    const dialog = await openDetails(user, /ada as an astronaut/);
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Denied'));

    await user.click(dialog.getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(screen.getByText('There was an error copying the link.')).toBeInTheDocument();
  });

  it('should load the next page with "Load more" (or as the list scrolls) and show it below the first', async () => {
    const first = [makeAvatar(5, { promptText: 'prompt 5' }), makeAvatar(4, { promptText: 'prompt 4' })];
    const second = [makeAvatar(2, { promptText: 'prompt 2' })];
    const { user, fetchMock } = await openGallery(first, {
      'GET /api/avatars': () => jsonResponse(avatarsPage(first, { nextCursor: 'page-2', total: 3 })),
      'GET /api/avatars?cursor=page-2': () => jsonResponse(avatarsPage(second, { total: 3 })),
    });

    await user.click(screen.getByRole('tab', { name: 'All (3)' }));
    expect(visiblePrompts()).toEqual(['prompt 5', 'prompt 4']);
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    await waitFor(() => expect(visiblePrompts()).toEqual(['prompt 5', 'prompt 4', 'prompt 2']));
    expect(callsTo(fetchMock, 'GET', '/api/avatars?cursor=page-2')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('should star an avatar from its tile and list the starred ones under Favourites', async () => {
    const pirate = makeAvatar(1, { promptText: 'ada as a pirate', favourite: true });
    let stored = [astronaut, pirate];
    const { user, fetchMock } = await openGallery(stored, {
      'PUT /api/avatars/3/favourite': () => {
        stored = [{ ...astronaut, favourite: true }, pirate];
        return jsonResponse(stored[0]);
      },
      'GET /api/avatars': () => jsonResponse(avatarsPage(stored)),
      'GET /api/avatars?favourites=true': () => jsonResponse(avatarsPage(stored.filter((avatar) => avatar.favourite))),
    });
    expect(screen.getByRole('tab', { name: 'Favourites (1)' })).toBeInTheDocument();

    const favourite = within(tileOf(/ada as an astronaut/)).getByRole('button', { name: 'Favourite' });
    expect(favourite).toHaveAttribute('aria-pressed', 'false');
    await user.click(favourite);

    await waitFor(() => expect(favourite).toHaveAttribute('aria-pressed', 'true'));
    expect(callsTo(fetchMock, 'PUT', '/api/avatars/3/favourite').map(({ body }) => body)).toEqual([
      { favourite: true },
    ]);
    await user.click(await screen.findByRole('tab', { name: 'Favourites (2)' }));
    expect(visiblePrompts()).toEqual([astronaut.promptText, 'ada as a pirate']);
  });

  it('should select tiles and delete them all after one confirmation, in one call', async () => {
    let stored = [
      astronaut,
      makeAvatar(2, { promptText: 'ada as a knight' }),
      makeAvatar(1, { promptText: 'ada as a pirate' }),
    ];
    const { user, fetchMock } = await openGallery(stored, {
      'GET /api/avatars': () => jsonResponse(avatarsPage(stored)),
      'POST /api/avatars/bulk-delete': (init) => {
        const { ids } = JSON.parse(String(init?.body)) as { ids: number[] };
        stored = stored.filter(({ id }) => !ids.includes(id));
        return jsonResponse({ deleted: ids.length });
      },
    });

    await user.click(screen.getByRole('button', { name: 'Select' }));
    expect(screen.queryByRole('button', { name: /ada as a knight/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /ada as an astronaut/ }));
    await user.keyboard(' ');
    await user.click(screen.getByRole('checkbox', { name: /ada as a pirate/ }));
    expect(screen.getByRole('checkbox', { name: /ada as an astronaut/ })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: /ada as an astronaut/ }));
    expect(screen.getByText('2 avatars selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Are you sure?' }));
    expect(callsTo(fetchMock, 'POST', '/api/avatars/bulk-delete')).toHaveLength(0);
    await user.click(confirm.getByRole('button', { name: 'Delete 2 avatars' }));

    expect(await screen.findByText('Avatars deleted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/avatars/bulk-delete').map(({ body }) => body)).toEqual([{ ids: [1, 3] }]);
    await waitFor(() => expect(visiblePrompts()).toEqual(['ada as a knight']));
    expect(screen.getByText('Select avatars to download or delete them.')).toBeInTheDocument();
  });

  it('should select every loaded avatar and download them, or all of them, as a ZIP in the chosen format', async () => {
    window.localStorage.setItem(OUTPUT_FORMAT_STORAGE_KEY, 'webp');
    const { downloads } = captureDownloads();
    const { user } = await openGallery([astronaut, makeAvatar(1, { promptText: 'ada as a pirate' })]);

    await user.click(screen.getByRole('button', { name: 'Download all' }));
    expect(downloads).toEqual([{ href: '/api/avatars/zip?format=webp', filename: '' }]);
    expect(
      await screen.findByText('A ZIP of all 2 avatars is downloading as WebP, each with its prompt.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('button', { name: 'Select all loaded' }));
    await user.click(screen.getByRole('button', { name: 'Download selected' }));
    expect(downloads[1]).toEqual({ href: '/api/avatars/zip?format=webp&ids=3%2C1', filename: '' });

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
