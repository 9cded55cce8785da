export * from './auth.schemas.js';
export * from './auth.http.js';
export * as AuthRpc from './auth.rpc.js';
export * as AuthEvents from './auth.events.js';
export * as AuthJobs from './auth.jobs.js';
