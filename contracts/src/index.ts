export * from './api/auth';
export * from './api/links';
export * from './errors';
export * from './events/accounts';
export * from './events/clicks';
export * from './events/links';
export * from './health';
