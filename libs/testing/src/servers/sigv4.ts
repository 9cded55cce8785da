import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

export interface SignS3RequestInput {
  method: string;
  /** Path-style, without a query string. */
  url: URL;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  date?: Date;
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256. */
  headers?: Record<string, string>;
  /** The body's SHA-256 in hex; defaults to the empty body's. */
  payloadHash?: string;
}

const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * The headers that sign one bodiless S3 request with AWS Signature Version 4, by the S3 SDK's
 * own signer, so libs/testing can create a bucket on MinIO or s3rver with a plain fetch.
 */
export async function signS3Request(input: SignS3RequestInput): Promise<Record<string, string>> {
  if (input.url.search) throw new Error('signS3Request signs requests without a query string');
  const signer = new SignatureV4({
    service: 's3',
    region: input.region,
    credentials: { accessKeyId: input.accessKeyId, secretAccessKey: input.secretAccessKey },
    sha256: Sha256,
    // S3 signs the path as it is sent, not encoded a second time.
    uriEscapePath: false,
  });
  const signed = await signer.sign(
    {
      method: input.method,
      protocol: input.url.protocol,
      hostname: input.url.hostname,
      ...(input.url.port ? { port: Number(input.url.port) } : {}),
      path: input.url.pathname,
      query: {},
      headers: {
        ...Object.fromEntries(
          Object.entries(input.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value.trim()]),
        ),
        host: input.url.host,
        'x-amz-content-sha256': input.payloadHash ?? EMPTY_BODY_SHA256,
      },
    },
    { signingDate: input.date ?? new Date() },
  );
  // fetch sets Host itself, from the URL that was signed.
  const { host: _host, ...toSend } = signed.headers;
  return toSend;
}
