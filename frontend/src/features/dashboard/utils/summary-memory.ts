/** What the top of the dashboard shows: the get-started guide, or the balance and quick stats. */
export type SummaryKind = 'guide' | 'overview';

const keyFor = (userId: number) => `dashboard_summary:${userId}`;

/**
 * The summary this browser last showed the account, so the dashboard's first paint keeps its
 * space before the avatar list says which it is; unknown (a first visit here) reads as the guide,
 * which is what a new account sees.
 */
export function rememberedSummary(userId: number): SummaryKind {
  try {
    return window.localStorage.getItem(keyFor(userId)) === 'overview' ? 'overview' : 'guide';
  } catch {
    return 'guide';
  }
}

export function rememberSummary(userId: number, kind: SummaryKind): void {
  try {
    window.localStorage.setItem(keyFor(userId), kind);
  } catch {
    // Storage can be blocked (private mode); the next visit then guesses the guide again.
  }
}
