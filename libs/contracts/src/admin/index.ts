export * from './admin.schemas.js';
export * from './admin.http.js';
export * as AdminRpc from './admin.rpc.js';
