import {
  type ReadAllOptions,
  type ReadAllResult,
  type RecordedEvent,
  START,
  type SubscribeOptions,
  type Subscription,
} from './port';

/** How an adapter's subscription waits for new events. */
export interface LiveWait {
  /** Settles once the adapter will hear of new appends (it throws from the iterator if it rejects). */
  ready?: Promise<unknown>;
  /** Waits after a short batch (caught up) until there may be more to read. */
  idle(): Promise<void>;
  /** Ends a pending `idle()` at once (on close). */
  wake(): void;
  /** The subscription is over: let go of what `ready` took. */
  ended(): void | Promise<void>;
}

/**
 * Catch-up then live over any store's `readAll`: reads batches from `after`, and after a short batch
 * waits as the adapter says before reading on. Each adapter only says how it waits, so the delivery rules
 * (in order, exactly once, nothing after close) are written once.
 */
export function catchUpSubscription(
  readAll: (options: ReadAllOptions) => Promise<ReadAllResult>,
  options: SubscribeOptions,
  live: LiveWait,
): Subscription {
  let closed = false;
  let started = false;
  async function* events(): AsyncGenerator<RecordedEvent> {
    started = true;
    let position = options.after ?? START;
    const batchSize = options.batchSize ?? 500;
    try {
      await live.ready;
      while (!closed) {
        const batch = await readAll({ after: position, maxCount: batchSize, types: options.types });
        for (const event of batch.events) {
          if (closed) return;
          yield event;
        }
        position = batch.next;
        if (batch.events.length < batchSize && !closed) await live.idle();
      }
    } finally {
      closed = true;
      await live.ended();
    }
  }
  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      closed = true;
      live.wake();
      await iterator.return(undefined);
      // A generator closed before its first step never runs its `finally`.
      if (!started) await live.ended();
    },
  };
}
