import { ILL_FORMED_TEXT_MESSAGE } from '@likeness/contracts';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

/** What a security review found any one account (or none) could do to the running product. */
describe('hardening: hostile input through the gateway', () => {
  let stack: RunningStack;
  let api: ReturnType<typeof apiClient>;
  let ada: Session;

  beforeAll(async () => {
    stack = await startTestStack();
    api = apiClient(stack.url, '198.18.9');
    ada = await api.register('ada_hardened');
  });

  afterAll(async () => {
    await stack?.shutdown();
  });

  describe('text PostgreSQL cannot store, or that is not text at all', () => {
    const illFormed = ['ada\u0000', 'bell\u0007', 'half \ud83d of an emoji', '\udc00'];

    it('should refuse it in a login, a registration, a package id and a prompt with 400, never 500', async () => {
      for (const text of illFormed) {
        const calls = [
          api.call('/api/login', { method: 'POST', body: { username: text, password: 'secret-password' } }),
          api.call('/api/register', {
            method: 'POST',
            body: { username: 'ok_name', email: 'ok@example.com', password: `pass${text}word` },
          }),
          api.call('/api/create-payment-intent', { method: 'POST', session: ada, body: { packageId: text } }),
          api.call('/api/generate-avatar', {
            method: 'POST',
            session: ada,
            body: { promptText: `ada at the beach ${text}`, customModelId: 1, numOutputs: 1 },
          }),
        ];
        // A URL carries bytes, not UTF-16: an unpaired surrogate cannot even be encoded into one.
        if (!/\p{Cs}/u.test(text)) {
          calls.push(
            api.call(`/api/image-formatter?url=${encodeURIComponent(`/api/files/${text}`)}&format=png`, {
              session: ada,
            }),
          );
        }
        for (const result of await Promise.all(calls)) {
          expectError(result, 400, 'COMMON.VALIDATION_FAILED', ILL_FORMED_TEXT_MESSAGE);
        }
      }
    });

    it('should keep accepting what people really type: accents, scripts and emoji', async () => {
      const result = await api.call('/api/login', {
        method: 'POST',
        body: { username: 'Zoë_李👩🏽‍🎤', password: 'secret-password' },
      });
      expectError(result, 401, 'AUTH.INVALID_CREDENTIALS');
    });
  });
});
