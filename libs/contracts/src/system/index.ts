export * from './system.rpc.js';
