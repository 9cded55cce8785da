export * from './system.rpc.js';
export * from './system.http.js';
export * from './live-events.js';
export * from './bus-access.js';
