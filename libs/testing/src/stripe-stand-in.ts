import { randomBytes } from 'node:crypto';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the part of the Stripe API billing calls (create and retrieve a
 * PaymentIntent), answering in Stripe's shapes so the real SDK talks to it. Tests steer what
 * Stripe would do on its own (a payment succeeding or failing, a gateway error) and sign webhooks
 * with its secret. There is no internet in tests: never point billing at the real Stripe.
 */
export interface StripeStandIn {
  /** `http://127.0.0.1:<port>`: STRIPE_API_URL. */
  url: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY and STRIPE_API_URL for billing's env. */
  env: Record<string, string>;
  /** The intents created, oldest first (copies). */
  intents(): StandInPaymentIntent[];
  /** One intent by id (a copy); throws when there is none. */
  intent(intentId: string): StandInPaymentIntent;
  /** Every request received, in order, with the status it was answered. */
  requests(): StandInRequest[];
  /** The customer paid: status `succeeded`. Returns the intent, ready for `signedEvent`. */
  succeed(intentId: string): StandInPaymentIntent;
  /** The customer submitted a payment method that settles later (a bank debit): status `processing`. */
  process(intentId: string): StandInPaymentIntent;
  /** The customer's attempt was declined: back to `requires_payment_method` with `last_payment_error`, as Stripe does. */
  fail(intentId: string, message?: string): StandInPaymentIntent;
  /**
   * The next `count` requests are answered `status` (Stripe's SDK retries 409, 429 and 5xx). With
   * `afterProcessing`, each request still takes effect and only its answer is lost, as when a
   * gateway times out after Stripe did the work.
   */
  failNext(count: number, status?: number, options?: { afterProcessing?: boolean }): void;
  /** The intent's charge as `charge.refunded` carries it; `amountRefunded` is the total refunded so far. */
  chargeFor(intentId: string, options?: { amountRefunded?: number }): StandInCharge;
  /** A dispute of the intent's charge as `charge.dispute.created` carries it; `amount` defaults to all of it. */
  disputeFor(intentId: string, options?: { amount?: number }): StandInDispute;
  /**
   * A Stripe event around `object` and its `Stripe-Signature` header, signed with `webhookSecret`.
   * `timestamp` (seconds since the epoch) backdates it to test the tolerance.
   */
  signedEvent(
    type: string,
    object: object,
    options?: { timestamp?: number },
  ): { id: string; payload: string; signature: string };
  /** Closes the server; later requests find nothing listening. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StandInRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
}

export interface StandInPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  automatic_payment_methods: { enabled: boolean; allow_redirects: 'always' } | null;
  client_secret: string;
  created: number;
  currency: string;
  description: string | null;
  last_payment_error: { type: 'card_error'; code: 'card_declined'; decline_code: string; message: string } | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  payment_method_types: string[];
  status: 'requires_payment_method' | 'processing' | 'succeeded';
}

export interface StandInCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  paid: boolean;
  refunded: boolean;
  status: 'succeeded';
  payment_intent: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

export interface StandInDispute {
  id: string;
  object: 'dispute';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  reason: string;
  status: 'needs_response';
  created: number;
  livemode: false;
  metadata: Record<string, string>;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function invalidRequest(status: number, message: string, extra: Record<string, string> = {}): Answer {
  return { status, body: { error: { type: 'invalid_request_error', message, ...extra } } };
}

/** Stripe's form encoding: `metadata[paymentId]=x` becomes `{ metadata: { paymentId: 'x' } }`. */
function parseForm(body: string): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null);
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/[[\]]+/).filter(Boolean);
    let node = result;
    for (const segment of path.slice(0, -1)) {
      node[segment] ??= Object.create(null);
      node = node[segment] as Record<string, unknown>;
    }
    node[path.at(-1) ?? key] = value;
  }
  return result;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_standin_${randomBytes(12).toString('hex')}`;
  const publishableKey = `pk_test_standin_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const intents = new Map<string, StandInPaymentIntent>();
  const chargeIds = new Map<string, string>();
  /** Idempotency-Key → the request body and the answer given, replayed for the same body as Stripe does. */
  const idempotent = new Map<string, { body: string; answer: Answer }>();
  const failures: { status: number; afterProcessing: boolean }[] = [];
  const log: StandInRequest[] = [];

  function find(intentId: string): StandInPaymentIntent {
    const intent = intents.get(intentId);
    if (!intent) throw new Error(`The Stripe stand-in has no payment intent ${intentId}`);
    return intent;
  }

  function createIntent(body: string): Answer {
    const params = parseForm(body);
    const amount = params['amount'];
    if (amount === undefined)
      return invalidRequest(400, 'Missing required param: amount.', { code: 'parameter_missing', param: 'amount' });
    if (typeof amount !== 'string' || !/^[1-9]\d*$/.test(amount)) {
      return invalidRequest(400, 'Invalid integer: ' + String(amount), {
        code: 'parameter_invalid_integer',
        param: 'amount',
      });
    }
    const currency = params['currency'];
    if (typeof currency !== 'string') {
      return invalidRequest(400, 'Missing required param: currency.', { code: 'parameter_missing', param: 'currency' });
    }
    const automatic = params['automatic_payment_methods'] as Record<string, string> | undefined;
    const id = stripeId('pi');
    const intent: StandInPaymentIntent = {
      id,
      object: 'payment_intent',
      amount: Number(amount),
      amount_received: 0,
      automatic_payment_methods: automatic
        ? { enabled: automatic['enabled'] === 'true', allow_redirects: 'always' }
        : null,
      client_secret: `${id}_secret_${randomBytes(12).toString('base64url')}`,
      created: now(),
      currency: currency.toLowerCase(),
      description: typeof params['description'] === 'string' ? params['description'] : null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: { ...((params['metadata'] as Record<string, string> | undefined) ?? {}) },
      payment_method_types: ['card'],
      status: 'requires_payment_method',
    };
    intents.set(id, intent);
    chargeIds.set(id, stripeId('ch'));
    return { status: 200, body: intent };
  }

  function handle(method: string, path: string, body: string, idempotencyKey: string | null): Answer {
    if (method === 'POST' && path === '/v1/payment_intents') {
      if (!idempotencyKey) return createIntent(body);
      const earlier = idempotent.get(idempotencyKey);
      if (earlier && earlier.body !== body) {
        return {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          },
        };
      }
      if (earlier) return { ...earlier.answer, headers: { 'Idempotent-Replayed': 'true' } };
      // Stripe replays the first answer as it was, not the intent as it is now.
      const answer = createIntent(body);
      idempotent.set(idempotencyKey, { body, answer: { ...answer, body: structuredClone(answer.body) } });
      return answer;
    }
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && retrieve) {
      const id = decodeURIComponent(retrieve[1] ?? '');
      const intent = intents.get(id);
      return intent
        ? { status: 200, body: intent }
        : invalidRequest(404, `No such payment_intent: '${id}'`, { code: 'resource_missing', param: 'intent' });
    }
    return invalidRequest(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const method = request.method ?? 'GET';
      const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
      const idempotencyKey = request.headers['idempotency-key']?.toString() ?? null;
      const failure = failures.shift();
      let answer: Answer;
      if (failure && !failure.afterProcessing) {
        answer = apiError(failure.status);
      } else {
        answer =
          request.headers.authorization === `Bearer ${secretKey}`
            ? handle(method, path, body, idempotencyKey)
            : invalidRequest(401, 'Invalid API Key provided.');
        if (failure) answer = apiError(failure.status);
      }
      log.push({ method, path, idempotencyKey, status: answer.status });
      response.writeHead(answer.status, {
        'Content-Type': 'application/json',
        'Request-Id': stripeId('req'),
        ...answer.headers,
      });
      response.end(JSON.stringify(answer.body));
    })().catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let stopped: Promise<void> | undefined;

  return {
    url,
    secretKey,
    publishableKey,
    webhookSecret,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PUBLISHABLE_KEY: publishableKey,
      STRIPE_API_URL: url,
    },
    intents: () => structuredClone([...intents.values()]),
    intent: (intentId) => structuredClone(find(intentId)),
    requests: () => structuredClone(log),
    succeed(intentId) {
      const intent = find(intentId);
      Object.assign(intent, {
        status: 'succeeded',
        amount_received: intent.amount,
        last_payment_error: null,
        latest_charge: chargeIds.get(intentId) ?? null,
      });
      return structuredClone(intent);
    },
    process(intentId) {
      const intent = find(intentId);
      Object.assign(intent, { status: 'processing', last_payment_error: null });
      return structuredClone(intent);
    },
    fail(intentId, message = 'Your card was declined.') {
      const intent = find(intentId);
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message },
        latest_charge: chargeIds.get(intentId) ?? null,
      });
      return structuredClone(intent);
    },
    failNext(count, status = 502, { afterProcessing = false } = {}) {
      for (let index = 0; index < count; index++) failures.push({ status, afterProcessing });
    },
    chargeFor(intentId, { amountRefunded = 0 } = {}) {
      const intent = find(intentId);
      return {
        id: chargeIds.get(intentId) ?? stripeId('ch'),
        object: 'charge',
        amount: intent.amount,
        amount_captured: intent.amount,
        amount_refunded: amountRefunded,
        currency: intent.currency,
        paid: true,
        refunded: amountRefunded >= intent.amount,
        status: 'succeeded',
        payment_intent: intent.id,
        metadata: { ...intent.metadata },
        created: now(),
        livemode: false,
      };
    },
    disputeFor(intentId, { amount } = {}) {
      const intent = find(intentId);
      return {
        id: stripeId('dp'),
        object: 'dispute',
        amount: amount ?? intent.amount,
        currency: intent.currency,
        charge: chargeIds.get(intentId) ?? stripeId('ch'),
        payment_intent: intent.id,
        reason: 'fraudulent',
        status: 'needs_response',
        created: now(),
        livemode: false,
        metadata: {},
      };
    },
    signedEvent(type, object, { timestamp = now() } = {}) {
      const id = stripeId('evt');
      const payload = JSON.stringify({
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: timestamp,
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      });
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp });
      return { id, payload, signature };
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The SDK keeps connections alive; without this, close() would wait for them.
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}

function apiError(status: number): Answer {
  return {
    status,
    body: { error: { type: 'api_error', message: 'The Stripe stand-in was told to fail this request.' } },
  };
}
