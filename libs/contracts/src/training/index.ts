export * from './training.schemas.js';
export * from './training.http.js';
export * as TrainingRpc from './training.rpc.js';
export * as TrainingEvents from './training.events.js';
