import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const helmetOptions: HelmetOptions = {
  // The SPA's own scripts, and Stripe.js with its iframes for the payment form (Stripe's
  // documented sources); Radix positions popovers with inline styles.
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
      frameSrc: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https://*.stripe.com'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'https://api.stripe.com'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      // Single-machine mode is plain HTTP on loopback; TLS is the ingress's job.
      upgradeInsecureRequests: null,
    },
  },
  frameguard: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets for our options, worked out once. They depend on nothing in the
 * request, so every answer can carry the same set: the ones routes give, the ones Fastify
 * gives before routing, and the ones written straight to the socket for requests Node's HTTP
 * parser refuses (see client-errors.ts).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = collectHeaders(helmetOptions);

/**
 * Every answer the app sends carries the security headers, set as it is sent: Nest's answer to
 * a request target the router cannot place (`*`) skips the onRequest hooks. A route may set one
 * of them its own way first.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = Object.entries(SECURITY_HEADERS);
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of headers) {
      if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    done(null, payload);
  });
}

function collectHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  let finished = false;
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // Helmet runs synchronously when no header depends on the request; ours must not.
  if (!finished) throw new Error('The security headers depend on the request; they cannot be computed once');
  return headers;
}
