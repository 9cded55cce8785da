export * from './inference-provider.js';
export * from './errors.js';
export * from './local-training-provider.js';
export * from './replicate-training-provider.js';
export * from './replicate-webhook.js';
export * from './create-training-provider.js';
