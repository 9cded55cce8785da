import { randomBytes } from 'node:crypto';
import type { CustomModel } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import sharp from 'sharp';

export interface Session {
  cookie: string;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  json?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each test reads the shape it expects
}

interface CallOptions {
  method?: string;
  session?: Session;
  /** JSON, or a FormData sent as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** The cookies a browser would hold after this response (cleared ones dropped). */
export function cookiesFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

/** A client of one running stack; each call comes from its own address (rate limits stay out of the way). */
export function apiClient(baseUrl: string, addressPrefix = '203.0.113') {
  let ip = 0;
  const call = async (path: string, options: CallOptions = {}): Promise<ApiResult> => {
    ip += 1;
    const isForm = options.body instanceof FormData;
    const response = await fetch(`${baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers: {
        'x-forwarded-for': `${addressPrefix}.${ip % 250}`,
        ...(options.body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
        ...(options.session ? { cookie: options.session.cookie } : {}),
        ...options.headers,
      },
      ...(options.body === undefined
        ? {}
        : { body: isForm ? (options.body as FormData) : JSON.stringify(options.body) }),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      text,
      json: isJson && text ? JSON.parse(text) : undefined,
    };
  };

  const register = async (username: string): Promise<Session> => {
    const result = await call('/api/register', {
      method: 'POST',
      body: { username, email: `${username}@example.com`, password: 'secret-password' },
    });
    expect(result.status).toBe(201);
    return {
      cookie: result.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    };
  };

  /** Buys a package with the local test processor's good card; returns the credits added. */
  const buyCredits = async (session: Session, packageId: string): Promise<number> => {
    const intent = await call('/api/create-payment-intent', { method: 'POST', body: { packageId }, session });
    const paymentIntentId = intent.json.paymentIntentId as string;
    await call('/api/local-payments/confirm', {
      method: 'POST',
      body: { paymentIntentId, cardNumber: '4242 4242 4242 4242' },
      session,
    });
    const confirmed = await call('/api/confirm-payment', { method: 'POST', body: { paymentIntentId }, session });
    return confirmed.json.credits as number;
  };

  const credits = async (session: Session): Promise<number> => (await call('/api/user', { session })).json.credits;

  /** Uploads `count` photo-like JPEGs; returns their ids. */
  const uploadSelfies = async (session: Session, count: number): Promise<number[]> => {
    const body = new FormData();
    for (let index = 0; index < count; index += 1) {
      body.append(
        'selfies',
        new Blob([new Uint8Array(await photo('jpeg', 512))], { type: 'image/jpeg' }),
        `s${index}.jpg`,
      );
    }
    const result = await call('/api/upload-selfies', { method: 'POST', body, session });
    expect(result.status).toBe(201);
    return (result.json.uploadedFiles as { id: number }[]).map((file) => file.id);
  };

  /** Trains a model on the given selfies and waits until it is completed (the local trainer). */
  const trainModel = async (
    session: Session,
    model: { modelName: string; triggerWord: string },
    referenceImageIds: number[],
  ): Promise<CustomModel> => {
    const trained = await call('/api/train-model', { method: 'POST', session, body: { ...model, referenceImageIds } });
    expect(trained.status).toBe(201);
    const { id } = trained.json as CustomModel;
    return waitFor(
      async () =>
        ((await call('/api/custom-models', { session })).json as CustomModel[]).find(
          (item) => item.id === id && item.status === 'completed',
        ),
      { timeoutMs: 30_000, what: `the model ${model.modelName} trained` },
    );
  };

  return { call, register, buyCredits, credits, uploadSelfies, trainModel };
}

/** A real photo-like image: blurred noise, so every one differs; selfies need 512 px or more. */
export async function photo(format: 'jpeg' | 'png' | 'webp' | 'gif', size = 640): Promise<Buffer> {
  return sharp(randomBytes(size * size * 3), { raw: { width: size, height: size, channels: 3 } })
    .blur(8)
    [format]()
    .toBuffer();
}
