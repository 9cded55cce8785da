const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const momentFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });

/** A model's created date ("Nov 23, 2026") and the full moment for its tooltip; null when unreadable. */
export function formatModelDate(createdAt: string): { day: string; moment: string } | null {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return null;
  return { day: dayFormat.format(date), moment: momentFormat.format(date) };
}
