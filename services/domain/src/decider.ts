import type { Decider, DomainEvent } from '@sniplink/contracts';

export type { Decider, DomainEvent } from '@sniplink/contracts';

/** The decider of a stream that holds `events`, from its three functions (its types are theirs). */
export const deciderOf = <Command, State, Event extends DomainEvent>(
  events: Decider<Command, State, Event>['events'],
  functions: Omit<Decider<Command, State, Event>, 'events'>,
): Decider<Command, State, Event> => ({ events, ...functions });

/**
 * The `default` of a switch that has a case for every member of a union: a member left without one does
 * not compile, as the value is not `never` then.
 */
export const exhaustive = (value: never): never => value;
