import { createHash, createHmac } from 'node:crypto';

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

/**
 * The headers that sign one bodiless S3 request with AWS Signature Version 4, so libs/testing
 * can create a bucket on MinIO or s3rver without depending on the S3 SDK.
 */
export function signS3Request(input: SignS3RequestInput): Record<string, string> {
  if (input.url.search) throw new Error('signS3Request signs requests without a query string');
  const amzDate = (input.date ?? new Date())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = input.payloadHash ?? sha256('');
  const headers: Record<string, string> = {
    ...Object.fromEntries(
      Object.entries(input.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value.trim()]),
    ),
    host: input.url.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
  };
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    input.method,
    input.url.pathname,
    '',
    ...names.map((name) => `${name}:${headers[name]}`),
    '',
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = [day, input.region, 's3', 'aws4_request'].reduce<Buffer>(
    (key, part) => hmac(key, part),
    Buffer.from(`AWS4${input.secretAccessKey}`),
  );
  const signature = hmac(signingKey, stringToSign).toString('hex');
  // fetch sets Host itself, from the URL that was signed.
  const { host: _host, ...toSend } = headers;
  return {
    ...toSend,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}
