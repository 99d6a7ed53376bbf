/** An event as a decider sees it: its type and payload (the store adds id, position and time). */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** Three pure functions per aggregate (after Emmett): no I/O, no clock, no randomness inside. */
export interface Decider<Command, State, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}
