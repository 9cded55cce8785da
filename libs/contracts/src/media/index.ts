export * from './media.schemas.js';
export * from './media.http.js';
export * from './media.jobs.js';
export * as MediaRpc from './media.rpc.js';
export * as MediaInternalHttp from './media.internal-http.js';
