import type { EventGroup } from '@sniplink/contracts';

/** An event as a decider sees it: its type and payload (the store adds id, position and time). */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/**
 * Three pure functions per aggregate (after Emmett): no I/O, no clock, no randomness inside. `events` is
 * the group of contracts/ its stream holds: the command handler checks each event read by it before
 * folding, instead of trusting a cast.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  events: EventGroup<Event>;
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}
