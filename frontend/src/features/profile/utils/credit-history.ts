import type { CreditHistoryEntry, CreditHistoryKind } from '@likeness/contracts';

/** What each kind of line is called on the Billing tab. */
export const creditKindLabels: Record<CreditHistoryKind, string> = {
  welcome: 'Welcome credits',
  purchase: 'Purchase',
  hold: 'Held',
  capture: 'Charged',
  release: 'Returned',
  refund: 'Refund',
  dispute: 'Disputed payment',
  adjustment: 'Adjustment',
};

/** A line's badge: the kind, or for a hold still open, that it is pending. */
export function creditEntryBadge(entry: Pick<CreditHistoryEntry, 'kind' | 'holdStatus'>): string {
  if (entry.kind === 'hold' && entry.holdStatus === 'held') return 'Pending';
  return creditKindLabels[entry.kind];
}

const minus = '\u2212';

/** "+125", "−30", "0": how a line changed the credits the user can spend. */
export function formatCreditChange(credits: number): string {
  if (credits > 0) return `+${credits.toLocaleString('en-US')}`;
  if (credits < 0) return `${minus}${Math.abs(credits).toLocaleString('en-US')}`;
  return '0';
}

/** The words a screen reader says for the change: "plus 125 credits", "minus 30 credits", "no change". */
export function describeCreditChange(credits: number): string {
  if (credits === 0) return 'no change to your credits';
  const amount = Math.abs(credits);
  return `${credits > 0 ? 'plus' : 'minus'} ${amount.toLocaleString('en-US')} ${amount === 1 ? 'credit' : 'credits'}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The line's moment in the user's locale: "Jun 14, 2025, 3:04 PM". */
export function formatEntryDate(iso: string): string {
  return dateTime.format(new Date(iso));
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A purchase's price: 1100 → "$11.00". */
export function formatCents(cents: number): string {
  return dollars.format(cents / 100);
}
