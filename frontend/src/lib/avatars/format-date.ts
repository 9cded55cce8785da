const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const momentFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });

function parse(createdAt: string | null): Date | null {
  if (!createdAt) return null;
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The badge on a card: the local date, or "Recent" when the avatar has no date (as on the dashboard). */
export function formatCardDate(createdAt: string | null): string {
  const date = parse(createdAt);
  return date ? dayFormat.format(date) : 'Recent';
}

/** The created time in the details, e.g. "June 14, 2025 at 3:04 PM"; null when unknown. */
export function formatCreatedAt(createdAt: string | null): string | null {
  const date = parse(createdAt);
  return date ? momentFormat.format(date) : null;
}
