import {
  ADMIN_ONLY_MESSAGE,
  MAX_STORED_INTEGER,
  RPC_CALLER_ID_HEADER,
  RPC_CALLER_ROLE_HEADER,
  type RpcDefinition,
  type RpcRequest,
  type RpcResponseInput,
  safeParseRequest,
} from '@likeness/contracts';
import {
  type ArgumentsHost,
  Catch,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  type RpcExceptionFilter,
  UseFilters,
  UseInterceptors,
  applyDecorators,
  Logger,
} from '@nestjs/common';
import { Match, type MsgHdrs } from '@nats-io/transport-node';
import { MessagePattern, type NatsContext } from '@nestjs/microservices';
import { Observable, type Observable as ObservableType, map, throwError } from 'rxjs';
import { DomainError, isExpectedError, toErrorBody } from '../errors/domain-error.js';
import { CORRELATION_HEADER, type RpcCaller, runWithCorrelation } from '../logging/correlation.js';
import { rpcMetrics } from '../health/metrics.js';
import { contextFromHeaders, failSpan, startMessagingSpan } from '../tracing/trace-context.js';

type HandlerMethod<D extends RpcDefinition> = (
  request: RpcRequest<D>,
  ...rest: never[]
) => Promise<RpcResponseInput<D>> | RpcResponseInput<D>;

/**
 * Marks a method as the handler of an RPC. The method's parameter and return types must match
 * the contract (a mismatch does not compile); at run time the request is parsed with the
 * contract's schema before the method sees it, the reply is checked before it leaves, the
 * caller's correlation id is restored, and failures travel as `{status, code, message}`.
 * A definition with a `requiredRole` is refused (403) unless the envelope names a caller with
 * that role; the handler reads the caller with `currentCaller()`.
 */
export function RpcHandler<D extends RpcDefinition>(definition: D) {
  const decorate = applyDecorators(
    MessagePattern(definition.subject),
    UseInterceptors(new RpcContractInterceptor(definition)),
    UseFilters(new RpcErrorFilter()),
  );
  return <M extends HandlerMethod<D>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => {
    decorate(target, key, descriptor);
  };
}

@Injectable()
class RpcContractInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Rpc');

  constructor(private readonly definition: RpcDefinition) {}

  intercept(context: ExecutionContext, next: CallHandler): ObservableType<unknown> {
    const args = context.getArgs();
    const natsContext = args[1] as NatsContext | undefined;
    const envelope = natsContext?.getHeaders?.() as MsgHdrs | undefined;
    const correlationId = envelope?.get(CORRELATION_HEADER) || undefined;
    const caller = callerOf(soleValue(envelope, RPC_CALLER_ID_HEADER), soleValue(envelope, RPC_CALLER_ROLE_HEADER));
    const subject = this.definition.subject;
    const timer = rpcMetrics.duration.startTimer({ subject });
    const started = performance.now();
    const { span, run } = startMessagingSpan(`rpc ${subject}`, 'server', contextFromHeaders(envelope), subject);
    const stopTimer = (labels: { outcome: 'ok' | 'rejected' | 'failed' }, error?: unknown) => {
      timer(labels);
      if (labels.outcome === 'failed') failSpan(span, error);
      span.end();
      this.logger.log(`${subject} ${labels.outcome} in ${Math.round(performance.now() - started)} ms`);
    };

    return new Observable((subscriber) =>
      run(() =>
        runWithCorrelation(
          correlationId,
          () => {
            if (this.definition.requiredRole && caller?.role !== this.definition.requiredRole) {
              stopTimer({ outcome: 'rejected' });
              subscriber.error(new DomainError('AUTH.FORBIDDEN', ADMIN_ONLY_MESSAGE));
              return undefined;
            }
            // The handler receives the parsed request (defaults applied, unknown keys dropped).
            const request = safeParseRequest(this.definition.request, args[0]);
            if (!request.success) {
              const error = DomainError.validation(request.error);
              stopTimer({ outcome: 'rejected' });
              subscriber.error(error);
              return undefined;
            }
            args[0] = request.data;
            return next
              .handle()
              .pipe(map((response) => parseReply(this.definition, response)))
              .subscribe({
                next: (value) => subscriber.next(value),
                error: (error) => {
                  stopTimer({ outcome: isExpectedError(error) ? 'rejected' : 'failed' }, error);
                  subscriber.error(error);
                },
                complete: () => {
                  stopTimer({ outcome: 'ok' });
                  subscriber.complete();
                },
              });
          },
          caller,
        ),
      ),
    );
  }
}

/**
 * A header's value when the envelope carries exactly one, under any spelling of its name: a
 * header sent twice (`user` then `admin`), or once more in other letters, is ambiguous and names
 * nothing, whichever of its values a reader would pick.
 */
function soleValue(envelope: MsgHdrs | undefined, name: string): string | undefined {
  const values = envelope?.values(name, Match.IgnoreCase) ?? [];
  return values.length === 1 ? values[0] : undefined;
}

/**
 * The caller the envelope names, when both its headers are well formed: an id that names a row
 * (a whole number from 1 to MAX_STORED_INTEGER, digits only) and a known role. Anything else
 * (a sign, a fraction, an id past the column's range, an unknown role) names nobody.
 */
function callerOf(id: string | undefined, role: string | undefined): RpcCaller | undefined {
  if (!id || !/^[1-9][0-9]{0,9}$/.test(id) || (role !== 'user' && role !== 'admin')) return undefined;
  const userId = Number(id);
  if (userId > MAX_STORED_INTEGER) return undefined;
  return { userId, role };
}

@Catch()
class RpcErrorFilter implements RpcExceptionFilter {
  private readonly logger = new Logger('Rpc');

  catch(exception: unknown, host: ArgumentsHost): ObservableType<never> {
    if (!isExpectedError(exception)) {
      const subject = host.switchToRpc().getContext<NatsContext>()?.getSubject?.();
      const error = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(`Handler for ${subject ?? 'an RPC'} failed: ${error.message}`, error.stack);
    }
    const body = toErrorBody(exception);
    return throwError(() => body);
  }
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
