import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Below this a JSON answer goes out as it is: compressing would save less than it costs. */
export const JSON_COMPRESSION_THRESHOLD_BYTES = 1024;
/** Fast enough for answers made per request, and still well under gzip's size. */
const BROTLI_QUALITY = 4;

type Encoding = 'br' | 'gzip';

const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body),
};

/**
 * Compresses JSON answers above {@link JSON_COMPRESSION_THRESHOLD_BYTES} for a client that
 * accepts brotli or gzip. Only whole bodies are touched: streamed answers (downloads, images,
 * server-sent events) pass through as they are.
 */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isCompressibleJson(reply, payload)) return payload;
    appendVary(reply, 'Accept-Encoding');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed = await compressors[encoding](Buffer.from(payload));
    void reply.header('content-encoding', encoding).removeHeader('content-length');
    return compressed;
  });
}

function isCompressibleJson(reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (reply.hasHeader('content-encoding')) return false;
  const type = String(reply.getHeader('content-type') ?? '');
  return (
    /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) && Buffer.byteLength(payload) >= JSON_COMPRESSION_THRESHOLD_BYTES
  );
}

/** Brotli, else gzip, among what the request's Accept-Encoding allows (`q=0` refuses one). */
export function preferredEncoding(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of [acceptEncoding ?? ''].flat().join(',').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const wildcard = accepted.get('*') ?? 0;
  return (['br', 'gzip'] as const).find((encoding) => (accepted.get(encoding) ?? wildcard) > 0);
}

function appendVary(reply: FastifyReply, header: string): void {
  const vary = String(reply.getHeader('vary') ?? '');
  const names = vary.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes(header.toLowerCase())) return;
  void reply.header('vary', vary ? `${vary}, ${header}` : header);
}
