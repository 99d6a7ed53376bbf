/**
 * Where services read the time. Deciders never do: a service asks its clock once and passes `now` in the
 * command, so a decision about a month or an expiry can be tested at any instant.
 */
export interface Clock {
  now(): Date;
}

/** The machine's clock: what every process is composed with (services/standalone/src/runtime.ts). */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until a test moves it: the instants a test asserts are the ones it set. */
export interface FixedClock extends Clock {
  set(iso: string): void;
  advance(ms: number): void;
}

export function fixedClock(iso: string): FixedClock {
  let current = parseInstant(iso);
  return {
    now: () => new Date(current),
    set: (next) => {
      current = parseInstant(next);
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

function parseInstant(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`fixedClock: "${iso}" is not an ISO 8601 instant`);
  return ms;
}
