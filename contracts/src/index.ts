export * from './api/auth';
export * from './errors';
export * from './events/accounts';
export * from './health';
