export * from './rpc.js';
export * from './events.js';
export * from './errors.js';
export * from './http.js';
export * from './auth/index.js';
export * from './system/index.js';
export * from './billing/index.js';
export * from './media/index.js';
export { httpRoutes } from './routes.js';
