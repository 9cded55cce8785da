export * from './mailer.js';
export * from './smtp-mailer.js';
export * from './mailbox-mailer.js';
export * from './templates.js';
export * from './mail-config.js';
