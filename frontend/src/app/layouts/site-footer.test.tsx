import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi, renderApp } from '@/test/render-app';

async function openFooter(socialLinks?: { kind: string; url: string }[]) {
  mockApi({
    handlers: {
      'GET /api/config': () =>
        jsonResponse({ supportEmail: 'help@likeness.example', ...(socialLinks ? { socialLinks } : {}) }),
    },
  });
  renderApp('/about');
  const footer = within(await screen.findByRole('contentinfo'));
  // The support address arrives with the same answer as the social links.
  await footer.findByRole('link', { name: 'help@likeness.example' });
  return footer;
}

describe('SiteFooter', () => {
  it("should link the deployment's own social accounts, each named by its service", async () => {
    const footer = await openFooter([
      { kind: 'microblog', url: 'https://microblog.example/@likeness' },
      { kind: 'code', url: 'https://www.code.example/likeness' },
    ]);

    const microblog = footer.getByRole('link', { name: 'Likeness on microblog.example' });
    expect(microblog).toHaveAttribute('href', 'https://microblog.example/@likeness');
    expect(microblog).toHaveAttribute('target', '_blank');
    expect(footer.getByRole('link', { name: 'Likeness on code.example' })).toHaveAttribute(
      'href',
      'https://www.code.example/likeness',
    );
    expect(footer.queryAllByRole('link', { name: /^Likeness on/ })).toHaveLength(2);
  });

  it('should show no social link when the deployment configured none', async () => {
    const footer = await openFooter();

    expect(footer.queryAllByRole('link', { name: /^Likeness on/ })).toEqual([]);
    expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  });
});
