import { FailureReasons, failureReasonOf } from './failure-reasons.js';

describe(failureReasonOf.name, () => {
  it("should quote the provider's words, once punctuated, and say the credits were not charged", () => {
    expect(failureReasonOf({ id: 't', status: 'failed', error: 'CUDA out of memory.  ' })).toBe(
      'The training failed: CUDA out of memory. Your credits were not charged.',
    );
    expect(failureReasonOf({ id: 't', status: 'failed' })).toBe('The training failed. Your credits were not charged.');
  });

  it('should shorten a long provider error', () => {
    const reason = failureReasonOf({ id: 't', status: 'failed', error: 'x'.repeat(5_000) })!;
    expect(reason.length).toBeLessThan(400);
    expect(reason).toMatch(/…\. Your credits were not charged\.$/);
  });

  it('should name cancellation and a success without a model, and nothing for a success or a running training', () => {
    expect(failureReasonOf({ id: 't', status: 'canceled' })).toBe(FailureReasons.cancelled);
    expect(failureReasonOf({ id: 't', status: 'succeeded' })).toBe(FailureReasons.noVersion);
    expect(failureReasonOf({ id: 't', status: 'succeeded', version: 'o/m:v' })).toBeUndefined();
    expect(failureReasonOf({ id: 't', status: 'processing' })).toBeUndefined();
    expect(failureReasonOf({ id: 't', status: 'starting' })).toBeUndefined();
  });
});
