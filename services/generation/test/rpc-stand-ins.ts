import { type RpcDefinition, type RpcRequest, type RpcResponseInput, safeParseRequest } from '@likeness/contracts';
import { DomainError, connectNats, namespaced, toErrorBody } from '@likeness/nest-kit';
import type { Msg, NatsConnection } from '@nats-io/transport-node';

/** What a stand-in answers one request with; throwing a DomainError refuses it with that code. */
export type RpcAnswer<D extends RpcDefinition> = (
  request: RpcRequest<D>,
) => RpcResponseInput<D> | Promise<RpcResponseInput<D>>;

export interface RecordedCall<D extends RpcDefinition> {
  request: RpcRequest<D>;
  /** When the request arrived (Date.now()). */
  at: number;
}

interface Responder {
  definition: RpcDefinition;
  answer: RpcAnswer<RpcDefinition>;
  calls: RecordedCall<RpcDefinition>[];
}

/**
 * The services generation calls (training, billing, media), played by the test on its own NATS
 * namespace. Each subject is answered by a function the test sets, in the packet format of the
 * kit's RpcHandler (`{pattern, data, id}` in, `{id, response | err, isDisposed}` out), and every
 * request is recorded. Requests and answers are checked against the contract as the real
 * handler checks them, so a test also proves generation sends what the contract says.
 */
export class RpcStandIns {
  private readonly responders = new Map<string, Responder>();
  /** Requests, and the test's own answers, that broke their contract: a test expects none. */
  readonly malformed: { subject: string; data: unknown }[] = [];

  private constructor(
    private readonly nats: NatsConnection,
    private readonly namespace: string,
  ) {}

  static async start(natsUrl: string, namespace: string): Promise<RpcStandIns> {
    return new RpcStandIns(await connectNats({ url: natsUrl, namespace, name: 'rpc-stand-ins' }), namespace);
  }

  /** Answers `definition` with `answer` from now on (replacing an earlier answer); resolves once NATS routes it here. */
  async answer<D extends RpcDefinition>(definition: D, answer: RpcAnswer<D>): Promise<void> {
    const existing = this.responders.get(definition.subject);
    if (existing) {
      existing.answer = answer as RpcAnswer<RpcDefinition>;
      return;
    }
    const responder: Responder = { definition, answer: answer as RpcAnswer<RpcDefinition>, calls: [] };
    this.responders.set(definition.subject, responder);
    this.nats.subscribe(namespaced({ namespace: this.namespace }, definition.subject), {
      callback: (error, message) => {
        if (!error) void this.respond(responder, message);
      },
    });
    await this.nats.flush();
  }

  /** The requests received for `definition`, oldest first. */
  calls<D extends RpcDefinition>(definition: D): RecordedCall<D>[] {
    return [...((this.responders.get(definition.subject)?.calls ?? []) as RecordedCall<D>[])];
  }

  close(): Promise<void> {
    return this.nats.drain();
  }

  private async respond(responder: Responder, message: Msg): Promise<void> {
    let packet: { id?: string; data?: unknown } | undefined;
    try {
      packet = message.json();
    } catch {
      packet = undefined;
    }
    const id = packet?.id;
    const reply = (body: { response: unknown } | { err: unknown }) =>
      message.respond(JSON.stringify({ id, ...body, isDisposed: true }));
    const request = safeParseRequest(responder.definition.request, packet?.data);
    if (!request.success) {
      this.malformed.push({ subject: responder.definition.subject, data: packet?.data });
      reply({ err: DomainError.validation(request.error).toBody() });
      return;
    }
    responder.calls.push({ request: request.data, at: Date.now() });
    let response: unknown;
    try {
      response = await responder.answer(request.data);
    } catch (error) {
      reply({ err: toErrorBody(error) });
      return;
    }
    const parsed = responder.definition.response.safeParse(response);
    if (!parsed.success) this.malformed.push({ subject: responder.definition.subject, data: response });
    reply(parsed.success ? { response: parsed.data } : { err: toErrorBody(new Error('a broken answer')) });
  }
}
