// How the benchmarks call the gateway: JSON or a form, with the session cookie when given.

/** @param {string} baseUrl the gateway's origin */
export function apiCaller(baseUrl) {
  return async (path, { method = 'GET', body, cookie } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
    });
    return { status: response.status, headers: response.headers, json: await response.json().catch(() => undefined) };
  };
}
