import { describe, expect, it } from 'vitest';
import { formatCentsAsDollars, formatDollars, formatDuration, formatRelativeTime, truncate } from './format';

describe('admin formats', () => {
  it('should show revenue as dollars with 2 decimals', () => {
    expect(formatDollars(1234.5)).toBe('$1,234.50');
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatCentsAsDollars(1100)).toBe('$11.00');
  });

  it('should say how long ago something was created, from a given now', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(formatRelativeTime('2026-11-21T11:59:30Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-11-21T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelativeTime('2026-11-21T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelativeTime('2026-11-20T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelativeTime('2026-11-07T12:00:00Z', now)).toBe('2 weeks ago');
    expect(formatRelativeTime('2025-11-01T12:00:00Z', now)).toBe('last year');
  });

  it('should cut a long prompt with an ellipsis and keep a short one whole', () => {
    expect(truncate('short prompt', 20)).toBe('short prompt');
    expect(truncate('a portrait of me as an astronaut on the moon', 20)).toBe('a portrait of me as…');
  });

  it('should say a run time in the unit that reads best', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_300)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(120_000)).toBe('2 min');
  });
});
