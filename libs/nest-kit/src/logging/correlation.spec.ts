import { currentCorrelationId, runWithCorrelation, sanitizeCorrelationId } from './correlation.js';

describe(runWithCorrelation.name, () => {
  it('should make the id current across awaits', async () => {
    const seen = await runWithCorrelation('abc-123', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentCorrelationId();
    });
    expect(seen).toBe('abc-123');
    expect(currentCorrelationId()).toBeUndefined();
  });

  it('should replace an id that could forge log lines with a fresh one', () => {
    expect(sanitizeCorrelationId('evil\n{"level":60}')).toBeUndefined();
    const seen = runWithCorrelation('evil\nline', () => currentCorrelationId());
    expect(seen).toMatch(/^[0-9a-f-]{36}$/);
  });
});
