import { expect } from 'vitest';
import type { Decider, DomainEvent } from '../decider';

/** given(events).when(command).then(events) / .thenThrows(error): a decider test reads as a specification. */
export function specFor<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>) {
  return (given: Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        // biome-ignore lint/suspicious/noThenProperty: given/when/then reads as the specification; never awaited.
        then: (expected: Event[]) => expect(run()).toEqual(expected),
        thenThrows: (matcher: Record<string, unknown>) => {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toMatchObject(matcher);
        },
      };
    },
  });
}
