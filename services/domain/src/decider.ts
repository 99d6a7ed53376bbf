export type { Decider, DomainEvent } from '@sniplink/contracts';
