export * from './training.schemas.js';
export * from './training.http.js';
export * from './training.jobs.js';
export * as TrainingRpc from './training.rpc.js';
export * as TrainingEvents from './training.events.js';
