import type { z } from 'zod';

/** What an internal route answers: JSON checked against a schema, or bytes of the listed types. */
export type InternalHttpReply =
  | { readonly type: 'json'; readonly status: number; readonly schema: z.ZodType }
  | { readonly type: 'bytes'; readonly contentTypes: readonly string[] };

/**
 * An HTTP route between our own apps (the gateway streaming image bytes to and from media,
 * which NATS's 1 MB payload limit rules out). Like an RPC definition, it is the whole contract:
 * the callee registers it, the caller builds its path from it, and both check what crosses.
 */
export interface InternalHttpRoute<
  TParams extends z.ZodType | undefined = z.ZodType | undefined,
  TQuery extends z.ZodType | undefined = z.ZodType | undefined,
  TReply extends InternalHttpReply = InternalHttpReply,
> {
  readonly method: 'GET' | 'POST';
  /** From the root; `{name}` is one path segment, `{name+}` one or more (a value with slashes). */
  readonly path: `/internal/${string}`;
  /** The path parameters' schema (an object keyed by the template's names). */
  readonly params: TParams;
  readonly query: TQuery;
  /** `multipart`: the request streams a multipart/form-data body through untouched. */
  readonly body?: 'multipart';
  readonly reply: TReply;
}

export function defineInternalRoute<
  TParams extends z.ZodType | undefined,
  TQuery extends z.ZodType | undefined,
  TReply extends InternalHttpReply,
>(route: InternalHttpRoute<TParams, TQuery, TReply>): InternalHttpRoute<TParams, TQuery, TReply> {
  return route;
}

/** What a caller passes for a route's path parameters or query. */
export type InternalParams<R extends InternalHttpRoute> = R['params'] extends z.ZodType
  ? z.input<R['params']>
  : undefined;
export type InternalQuery<R extends InternalHttpRoute> = R['query'] extends z.ZodType ? z.input<R['query']> : undefined;
/** The parsed JSON reply of a route that answers JSON. */
export type InternalJsonReply<R extends InternalHttpRoute> = R['reply'] extends { type: 'json'; schema: infer S }
  ? S extends z.ZodType
    ? z.output<S>
    : never
  : never;
