export * from './api/auth';
export * from './api/links';
export * from './errors';
export * from './events/accounts';
export * from './events/clicks';
export { eventRegistry } from './events/event-registry';
export * from './events/links';
export * from './events/registry';
export * from './health';
