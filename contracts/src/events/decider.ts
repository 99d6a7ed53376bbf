import type { EventGroup } from './registry';

/** An event as a decider sees it: its type and payload (the store adds id, position and time). */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/**
 * Three pure functions per aggregate (after Emmett): no I/O, no clock, no randomness inside. `events` is
 * the group its stream holds: the command handler checks each event read before folding, instead of
 * trusting a cast. Declared here, beside the events, so the deciders and the command handler that runs
 * them share it.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  events: EventGroup<Event>;
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}
