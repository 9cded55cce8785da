import {
  type HttpRoute,
  IMAGE_NOT_FOUND_MESSAGE,
  MediaInternalHttp,
  type SignedUrlQuery,
  fileRoute,
  sharedAvatarRoute,
  signedUrlQuerySchema,
} from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/http-errors.js';
import type { MediaHttpClient } from './media-http.client.js';

const prefixOf = (path: string) => path.slice(0, path.indexOf('{'));
const FILES_PREFIX = prefixOf(fileRoute.path);
const SHARED_AVATARS_PREFIX = prefixOf(sharedAvatarRoute.path);

export interface SignedFileRequest extends SignedUrlQuery {
  key: string;
}

/**
 * The signed file a raw `/api/files/<key>?expires=&signature=` URL names, or undefined when it
 * names none: the key is decoded once and must have the shape of a key media signs, and the
 * expiry and signature must each appear once, in their shapes. Other query parameters are
 * dropped, never forwarded.
 */
export function parseSignedFileUrl(url: string): SignedFileRequest | undefined {
  const [path, search] = splitUrl(url);
  const key = fileRoute.params.shape.key.safeParse(decodedTail(path, FILES_PREFIX));
  if (!key.success) return undefined;
  const params = new URLSearchParams(search);
  const query = signedUrlQuerySchema.safeParse({
    expires: single(params, 'expires'),
    signature: single(params, 'signature'),
  });
  return query.success ? { key: key.data, ...query.data } : undefined;
}

/** The share token a raw `/api/shared/avatars/<token>` URL names, or undefined. */
export function parseSharedAvatarUrl(url: string): { token: string } | undefined {
  const token = sharedAvatarRoute.params.shape.token.safeParse(decodedTail(splitUrl(url)[0], SHARED_AVATARS_PREFIX));
  return token.success ? { token: token.data } : undefined;
}

/**
 * The public routes that serve image bytes by capability, in Fastify's spelling (the key spans
 * several path segments, which Nest's router cannot express).
 */
const FILES_URL = `${FILES_PREFIX}*`;
const SHARED_AVATARS_URL = `${SHARED_AVATARS_PREFIX}*`;
export const mediaFileRoutes: readonly { route: HttpRoute; url: string }[] = [
  { route: fileRoute, url: FILES_URL },
  { route: sharedAvatarRoute, url: SHARED_AVATARS_URL },
];

/**
 * Image bytes by capability: a signed file URL (as listed to its owner) or an avatar's share
 * link. No session is needed (an <img> or a shared link carries none); media checks the
 * signature or the token. The gateway forwards only values of the shapes media issues, and
 * builds media's path from them, never from the raw URL.
 */
export function registerMediaFileRoutes(fastify: FastifyInstance, media: MediaHttpClient): void {
  fastify.get(FILES_URL, (request, reply) =>
    answer(request, reply, () => {
      const file = parseSignedFileUrl(request.url);
      if (!file) throw notFound();
      const { key, expires, signature } = file;
      return media.relayBytes(MediaInternalHttp.signedFile, { params: { key }, query: { expires, signature } }, reply);
    }),
  );
  fastify.get(SHARED_AVATARS_URL, (request, reply) =>
    answer(request, reply, () => {
      const avatar = parseSharedAvatarUrl(request.url);
      if (!avatar) throw notFound();
      return media.relayBytes(MediaInternalHttp.sharedAvatar, { params: avatar }, reply);
    }),
  );
}

async function answer(request: FastifyRequest, reply: FastifyReply, relay: () => Promise<FastifyReply>) {
  try {
    return await relay();
  } catch (error) {
    sendError(reply, request, error);
    return reply;
  }
}

const notFound = () => new DomainError('COMMON.NOT_FOUND', IMAGE_NOT_FOUND_MESSAGE);

function splitUrl(url: string): [path: string, search: string] {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? [url, ''] : [url.slice(0, queryStart), url.slice(queryStart + 1)];
}

/** What follows `prefix`, decoded once; undefined when it is malformed or hides a separator. */
function decodedTail(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const encoded = path.slice(prefix.length);
  // A key's slashes are literal; an encoded slash or backslash is never one we issued.
  if (/%(?:2f|5c)/i.test(encoded)) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}
