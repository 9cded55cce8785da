import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderRejectedError, ProviderUnavailableError, createReplicateClient } from '@likeness/inference';
import { DomainError } from '@likeness/nest-kit';
import { OutputRejectedError, downloadOutput } from './download-output.js';
import { providerErrorKind } from './provider-error-kind.js';

describe(providerErrorKind.name, () => {
  it('should tell a 429 from a 5xx and from another refusal', () => {
    expect(providerErrorKind(new ProviderUnavailableError('Replicate answered 429', 429))).toBe('rate_limited');
    expect(providerErrorKind(new ProviderUnavailableError('Replicate answered 503', 503))).toBe('server_error');
    expect(providerErrorKind(new ProviderUnavailableError('Downloading answered 404', 404))).toBe('rejected');
    expect(providerErrorKind(new ProviderRejectedError('Replicate refused (422)', 422))).toBe('rejected');
  });

  it('should call an output we cannot keep invalid, whether we or media refused it', () => {
    expect(providerErrorKind(new OutputRejectedError('it is larger than 20 MB'))).toBe('invalid_output');
    expect(providerErrorKind(new DomainError('MEDIA.INVALID_IMAGE', 'The file is not an image.'))).toBe(
      'invalid_output',
    );
  });

  it('should leave errors that say nothing about the provider uncounted', () => {
    expect(providerErrorKind(new DomainError('COMMON.SERVICE_UNAVAILABLE', 'Media is away.'))).toBeUndefined();
    expect(providerErrorKind(new Error('connection terminated'))).toBeUndefined();
  });

  it('should call a provider nobody listens on unreachable', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused.
    const error = await downloadOutput('http://127.0.0.1:1/files/out.png').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(providerErrorKind(error)).toBe('unreachable');
  });

  describe('with a provider that does not answer', () => {
    // Accepts connections and never answers.
    const silent = createServer(() => undefined);
    let url: string;

    beforeAll(async () => {
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    });

    it("should call Replicate's client giving up at its deadline a timeout", async () => {
      const client = createReplicateClient({ apiToken: 'r8_test', baseUrl: `${url}/v1`, requestTimeoutMs: 50 });
      const error = await client.predictions.get('abc').catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(providerErrorKind(error)).toBe('timeout');
    });
  });
});
