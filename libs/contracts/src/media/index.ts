export * from './media.schemas.js';
export * from './media.http.js';
export * as MediaRpc from './media.rpc.js';
