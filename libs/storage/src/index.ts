export * from './object-storage.js';
export * from './local-storage.js';
export * from './s3-storage.js';
export * from './create-object-storage.js';
export * from './storage-config.js';
