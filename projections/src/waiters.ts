/** A wait for a read model to reach a position: settled once, true when reached, false when given up. */
export type Waiter<Fields> = Fields & { resolve(reached: boolean): void };

/**
 * Waits in `waiters` (whoever sees the position reached calls the waiter's `resolve(true)`) until settled,
 * or `timeoutMs` passes (false). Settled either way, the waiter leaves the set and its timer is stopped.
 */
export function waitIn<Fields extends object>(
  waiters: Set<Waiter<Fields>>,
  fields: Fields,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    const waiter: Waiter<Fields> = {
      ...fields,
      resolve: (reached) => {
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(reached);
      },
    };
    const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
    waiters.add(waiter);
  });
}
