import type { z } from 'zod';

/**
 * A request/reply call between services. The subject follows `<service>.<noun>.<verb>`;
 * request and response are validated on both ends, so a definition is the whole contract.
 */
export interface RpcDefinition<
  TSubject extends string = string,
  TRequest extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
> {
  readonly subject: TSubject;
  readonly request: TRequest;
  readonly response: TResponse;
  /**
   * The role the caller must have. The caller (the user the gateway verified) travels in the
   * RPC envelope, and the answering service refuses a call without it: it never trusts that
   * the gateway checked.
   */
  readonly requiredRole?: 'admin';
}

export function defineRpc<TSubject extends string, TRequest extends z.ZodType, TResponse extends z.ZodType>(
  definition: RpcDefinition<TSubject, TRequest, TResponse>,
): RpcDefinition<TSubject, TRequest, TResponse> {
  return definition;
}

/** The headers of the RPC envelope that name the caller. */
export const RPC_CALLER_ID_HEADER = 'likeness-caller-id';
export const RPC_CALLER_ROLE_HEADER = 'likeness-caller-role';

/** What a caller passes: the schema's input (before defaults and transforms). */
export type RpcRequestInput<D extends RpcDefinition> = z.input<D['request']>;
/** What a handler receives: the parsed request. */
export type RpcRequest<D extends RpcDefinition> = z.output<D['request']>;
/** What a handler returns, before the reply schema parses it. */
export type RpcResponseInput<D extends RpcDefinition> = z.input<D['response']>;
/** What a caller receives: the parsed reply. */
export type RpcResponse<D extends RpcDefinition> = z.output<D['response']>;
