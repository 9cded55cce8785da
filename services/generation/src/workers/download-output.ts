import { ProviderUnavailableError } from '@likeness/inference';

/** What media accepts from a provider (it checks the bytes again). */
const MAX_OUTPUT_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** The output is not something we keep: another download will not change that. */
export class OutputRejectedError extends Error {}

/**
 * Fetches one output of a prediction before its URL expires. Only https (or http on loopback,
 * for the stand-in in tests), only images, never more than 20 MB held in memory.
 */
export async function downloadOutput(url: string): Promise<{ bytes: Buffer; contentType: string }> {
  const parsed = new URL(url);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new OutputRejectedError(`it came from ${parsed.protocol}//${parsed.host}`);
  }
  let response: Response;
  try {
    response = await fetch(parsed, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw new ProviderUnavailableError(
      `Downloading a prediction output failed: ${(error as Error).message}`,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (!response.ok || !response.body) {
    throw new ProviderUnavailableError(`Downloading a prediction output answered ${response.status}`, response.status);
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_OUTPUT_BYTES) throw new OutputRejectedError('it is larger than 20 MB');
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_OUTPUT_BYTES) {
      await reader.cancel();
      throw new OutputRejectedError('it is larger than 20 MB');
    }
    chunks.push(Buffer.from(read.value));
  }
  return {
    bytes: Buffer.concat(chunks),
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
  };
}
