import type { RpcDefinition, RpcRequest, RpcResponseInput } from '@likeness/contracts';
import { SetMetadata } from '@nestjs/common';

export const RPC_HANDLER_METADATA = Symbol('RPC_HANDLER_METADATA');

type HandlerMethod<D extends RpcDefinition> = (
  request: RpcRequest<D>,
  ...rest: never[]
) => Promise<RpcResponseInput<D>> | RpcResponseInput<D>;

/**
 * Marks a controller's or provider's method as the handler of an RPC, answered by the service's
 * `RpcServer`. The method's parameter and return types must match the contract (a mismatch does
 * not compile); at run time the request is parsed with the contract's schema before the method
 * sees it, the reply is checked before it leaves, the caller's correlation id is restored, and
 * failures travel as `{status, code, message}`. A definition with a `requiredRole` is refused
 * (403) unless the envelope names a caller with that role; the handler reads the caller with
 * `currentCaller()`.
 */
export function RpcHandler<D extends RpcDefinition>(definition: D) {
  const mark = SetMetadata(RPC_HANDLER_METADATA, definition);
  return <M extends HandlerMethod<D>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => {
    mark(target, key, descriptor);
  };
}

/** A reply that breaks its contract is a bug on the answering side, never the caller's fault. */
export function parseReply(definition: RpcDefinition, response: unknown): unknown {
  const reply = definition.response.safeParse(response);
  if (!reply.success) {
    throw new Error(
      `Reply of ${definition.subject} broke its contract: ${reply.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return reply.data;
}
