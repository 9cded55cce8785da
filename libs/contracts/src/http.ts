import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One public HTTP route of the gateway: the source of the OpenAPI document and of the SPA's types. */
export interface HttpRoute<
  TBody extends z.ZodType | undefined = z.ZodType | undefined,
  TResponse extends z.ZodType = z.ZodType,
  TParams extends ParamsSchema | undefined = ParamsSchema | undefined,
> {
  readonly method: HttpMethod;
  readonly path: `/api/${string}`;
  readonly summary: string;
  readonly tag: string;
  /** Whether the route needs a signed-in user. */
  readonly auth: boolean;
  readonly body: TBody;
  /** The path parameters' schemas, one per `{name}` in `path` (decoded text in, parsed values out). */
  readonly params: TParams;
  /** The query string's schema, for routes that take one. */
  readonly query?: z.ZodType;
  /** `multipart`: the body is a multipart/form-data upload (described by `summary`), not JSON. */
  readonly bodyType?: 'json' | 'multipart';
  readonly response: TResponse;
  /** The route creates something and answers 201 (otherwise 200). */
  readonly created?: boolean;
  /** `image`: image bytes (its content type says which); `zip`: a ZIP archive; `event-stream`: server-sent events; else JSON. */
  readonly responseType?: 'json' | 'image' | 'zip' | 'event-stream';
  /** Error codes the route can answer with, besides validation and the generic ones. */
  readonly errors: readonly string[];
}

/** A route's path parameters: an object schema keyed by the names in its path. */
export type ParamsSchema = z.ZodObject;

// Calling it has no side effect: a bundle (the SPA) drops the routes nothing uses.
/*#__NO_SIDE_EFFECTS__*/
export function defineRoute<
  TBody extends z.ZodType | undefined,
  TResponse extends z.ZodType,
  TParams extends ParamsSchema | undefined,
>(route: HttpRoute<TBody, TResponse, TParams>): HttpRoute<TBody, TResponse, TParams> {
  return route;
}
