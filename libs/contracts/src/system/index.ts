export * from './system.rpc.js';
export * from './system.http.js';
