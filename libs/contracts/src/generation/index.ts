export * from './generation.schemas.js';
export * from './generation.http.js';
export * from './generation.jobs.js';
export * as GenerationRpc from './generation.rpc.js';
export * as GenerationEvents from './generation.events.js';
