import { afterAll, beforeAll } from 'vitest';

/**
 * What a test file or a describe block makes once for all its tests: registers a beforeAll that runs
 * `make` and an afterAll that runs `unmake` on what it made (when it made anything). The function returned
 * hands it over from the first test on, and throws before the beforeAll has run.
 */
export function madeOnce<T>(make: () => Promise<T>, unmake: (made: T) => Promise<void>): () => T {
  let made: { value: T } | undefined;
  beforeAll(async () => {
    made = { value: await make() };
  });
  afterAll(async () => {
    if (made) await unmake(made.value);
  });
  return () => {
    if (!made) throw new Error('read before the beforeAll that makes it has run');
    return made.value;
  };
}
