/**
 * Reads until `done` says yes or the time is up, then returns the last reading: the caller's assertion on
 * it says what was wrong. For results that arrive asynchronously (clicks counted by the projection).
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
