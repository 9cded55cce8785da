export * from './billing.schemas.js';
export * from './billing.http.js';
export * as BillingRpc from './billing.rpc.js';
export * as BillingEvents from './billing.events.js';
