import type { Decider, DomainEvent } from '@sniplink/domain';
import { expect } from 'vitest';

/** What a specification's act came to: it returned, or it threw `error`. */
export type Outcome = { failed: false } | { failed: true; error: unknown };

/** The act threw an error matching `error`. */
export function expectFailure(outcome: Outcome, error: Record<string, unknown>): void {
  expect(outcome.failed, 'the command should have failed').toBe(true);
  if (outcome.failed) expect(outcome.error).toMatchObject(error);
}

/**
 * given(events).when(command).then(events) / .thenThrows(error): a decider test reads as a specification.
 * The decider alone, pure: no store, no clock (`commandSpec` in command-spec.ts runs a whole pipeline).
 */
export function specFor<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>) {
  return (given: Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        // biome-ignore lint/suspicious/noThenProperty: given/when/then reads as the specification; never awaited.
        then: (expected: Event[]) => expect(run()).toEqual(expected),
        thenThrows: (error: Record<string, unknown>) => {
          let outcome: Outcome = { failed: false };
          try {
            run();
          } catch (thrown) {
            outcome = { failed: true, error: thrown };
          }
          expectFailure(outcome, error);
        },
      };
    },
  });
}
