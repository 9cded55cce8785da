// How the benchmarks call the gateway: JSON or a form, with the session cookie when given.

/** @param {string} baseUrl the gateway's origin  @param {{ timeoutMs?: number }} options past it a call throws */
export function apiCaller(baseUrl, { timeoutMs } = {}) {
  return async (path, { method = 'GET', body, cookie } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
      ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
    });
    return { status: response.status, headers: response.headers, json: await response.json().catch(() => undefined) };
  };
}

/** Buys a credit package through the local test processor, as the checkout page does. */
export async function buyPackage(call, cookie, packageId) {
  const intent = await call('/api/create-payment-intent', { method: 'POST', body: { packageId }, cookie });
  const { paymentIntentId } = intent.json;
  await call('/api/local-payments/confirm', {
    method: 'POST',
    body: { paymentIntentId, cardNumber: '4242 4242 4242 4242' },
    cookie,
  });
  await call('/api/confirm-payment', { method: 'POST', body: { paymentIntentId }, cookie });
}

/** Uploads 12 selfies and starts training a model on them (30 credits); returns its id at once. */
export async function startBenchTraining(call, cookie, { modelName, triggerWord }) {
  const { selfie } = await import('./images.mjs');
  const form = new FormData();
  for (let index = 0; index < 12; index += 1)
    form.append('selfies', new Blob([await selfie(index)], { type: 'image/jpeg' }), `s${index}.jpg`);
  const uploaded = await call('/api/upload-selfies', { method: 'POST', body: form, cookie });
  const trained = await call('/api/train-model', {
    method: 'POST',
    body: { modelName, triggerWord, referenceImageIds: uploaded.json.uploadedFiles.map((file) => file.id) },
    cookie,
  });
  if (trained.status !== 201)
    throw new Error(`train-model answered ${trained.status}: ${JSON.stringify(trained.json)}`);
  return trained.json.id;
}

/** Uploads 12 selfies and trains a model on them (30 credits); returns its id once it is completed. */
export async function trainBenchModel(call, cookie, model) {
  const id = await startBenchTraining(call, cookie, model);
  for (;;) {
    const models = await call('/api/custom-models', { cookie });
    if (models.json.find((candidate) => candidate.id === id)?.status === 'completed') return id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
