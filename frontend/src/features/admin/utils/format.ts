const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const count = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** SPEC §2: revenue as dollars with 2 decimals, "$1,234.50". */
export function formatDollars(amount: number): string {
  return dollars.format(amount);
}

/** A payment's amount in cents as dollars: 1100 → "$11.00". */
export function formatCentsAsDollars(cents: number): string {
  return dollars.format(cents / 100);
}

export function formatCount(value: number): string {
  return count.format(value);
}

/** A rate from 0 to 1: 0.125 → "12.5%". */
export function formatRate(rate: number): string {
  return percent.format(rate);
}

/** The moment in the viewer's locale: "Jun 14, 2025, 3:04 PM". */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

const units: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** SPEC §2: "created" as relative time, "3 days ago", "just now" under a minute. */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 60) return 'just now';
  const [unit, size] = units.find(([, unitSeconds]) => Math.abs(seconds) >= unitSeconds) ?? ['second', 1];
  return relative.format(Math.trunc(seconds / size), unit);
}

/** A long prompt cut to fit a table cell, with an ellipsis; the full text goes in the cell's title. */
export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

/** A job's run time: 850 → "850 ms", 12_300 → "12.3 s", 125_000 → "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}
