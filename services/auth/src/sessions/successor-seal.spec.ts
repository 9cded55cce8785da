import { openSuccessor, sealSuccessor } from './successor-seal.js';

describe(sealSuccessor.name, () => {
  it('should open with the old token only', () => {
    const sealed = sealSuccessor('old-token', 'new-token');
    expect(openSuccessor('old-token', sealed)).toBe('new-token');
    expect(openSuccessor('another-token', sealed)).toBeUndefined();
    expect(sealed).not.toContain('new-token');
  });

  it('should refuse a tampered or truncated seal', () => {
    const sealed = Buffer.from(sealSuccessor('old-token', 'new-token'), 'base64url');
    sealed[sealed.length - 1]! ^= 1;
    expect(openSuccessor('old-token', sealed.toString('base64url'))).toBeUndefined();
    expect(openSuccessor('old-token', 'AAAA')).toBeUndefined();
  });
});
