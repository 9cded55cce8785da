import { z } from 'zod';
import { ILL_FORMED_TEXT_MESSAGE, findIllFormedText, isWellFormedText, safeParseRequest } from './validation.js';

describe(isWellFormedText.name, () => {
  it('should accept what people type, in any script, with emoji, tabs and line breaks', () => {
    for (const text of ['ada', 'Zoë Saldaña', '李小龙', 'مرحبا', '👩🏽‍🎤 at the beach', 'line\nbreak\r\n\ttab', '']) {
      expect(isWellFormedText(text)).toBe(true);
    }
  });

  it('should refuse NUL, other control characters and unpaired surrogates', () => {
    for (const text of [
      'a\u0000b',
      '\u0000',
      'bell\u0007',
      'esc\u001b[31m',
      'lone \ud800 high',
      'lone \udc00 low',
      '\ud83d',
    ]) {
      expect(isWellFormedText(text)).toBe(false);
    }
  });
});

describe(findIllFormedText.name, () => {
  it('should name the first field holding bad text, however deep, including keys', () => {
    expect(findIllFormedText({ username: 'ada', password: 'ok' })).toBeUndefined();
    expect(findIllFormedText({ username: 'ad\u0000a' })).toEqual(['username']);
    expect(findIllFormedText({ list: [{ ok: 'x' }, { name: 'x\ud800' }] })).toEqual(['list', 1, 'name']);
    expect(findIllFormedText({ ['k\u0000']: 1 })).toEqual(['k\u0000']);
    expect(findIllFormedText(42)).toBeUndefined();
  });
});

describe(safeParseRequest.name, () => {
  const schema = z.object({ username: z.string().min(3), note: z.string().optional() });

  it('should refuse ill-formed text before the contract, with a message a person understands', () => {
    const result = safeParseRequest(schema, { username: 'ad\u0000min' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['username'], message: ILL_FORMED_TEXT_MESSAGE }),
    ]);
  });

  it('should otherwise parse with the contract', () => {
    expect(safeParseRequest(schema, { username: 'ada' })).toEqual({ success: true, data: { username: 'ada' } });
    expect(safeParseRequest(schema, { username: 'a' }).success).toBe(false);
  });
});
