import type { AppendListener, RecordedEvent, Subscription } from './port';

/** What this module needs of the client's live subscription to `$all` (a Readable of its events). */
export interface LiveFeed {
  on(event: 'data', listener: (event: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close' | 'end', listener: () => void): unknown;
  once(event: 'confirmation', listener: () => void): unknown;
  unsubscribe(): Promise<void>;
  destroy(): void;
}

/**
 * The EventStoreDB adapter's `onAppended`: one live subscription to `$all` from its end, shared by every
 * listener of the store, that calls them all on each event it delivers. A listener is told it is heard
 * once the server has confirmed the subscription: the server confirms only after it registered it for
 * every event committed from then on (its live subscription, not a read), so an append that completes
 * after that is delivered. A subscription that drops after it was confirmed is opened again (every
 * `retryMs` until it is) and, once confirmed, calls every listener, since appends may have been missed
 * meanwhile; one that fails before its confirmation fails the `listen` calls waiting on it. It is closed
 * when its last listener stops listening.
 */
export class LiveAppends {
  private readonly listeners = new Set<AppendListener>();
  private current: { feed: LiveFeed; confirmed: Promise<void> } | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** A confirmed subscription was lost: the next confirmation tells every listener to read again. */
  private lost = false;
  private closed = false;

  constructor(
    private readonly open: () => LiveFeed,
    private readonly retryMs = 1_000,
  ) {}

  /** Resolves, with the way to stop listening, once appends made from then on will be heard. */
  async listen(listener: AppendListener): Promise<() => void> {
    if (this.closed) throw new Error('The event store is closed');
    const own = () => listener(); // the same function twice is two listeners, as with the other adapters
    this.listeners.add(own);
    try {
      await this.subscribed();
    } catch (error) {
      this.listeners.delete(own);
      this.stopIfUnused();
      throw error;
    }
    return () => {
      this.listeners.delete(own);
      this.stopIfUnused();
    };
  }

  /** Stops the subscription; every later `listen` is refused. */
  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.stopIfUnused();
  }

  private subscribed(): Promise<void> {
    clearTimeout(this.retry);
    this.current ??= this.start();
    return this.current.confirmed;
  }

  private start(): { feed: LiveFeed; confirmed: Promise<void> } {
    const feed = this.open();
    let confirmed = false;
    let ended = false;
    let fail: (error: Error) => void = () => {};
    const confirmation = new Promise<void>((resolve, reject) => {
      fail = reject;
      feed.once('confirmation', () => {
        confirmed = true;
        resolve();
        if (this.lost) {
          this.lost = false;
          this.tellAll();
        }
      });
    });
    confirmation.catch(() => {}); // a listen() waiting on it gets the error; nothing else does
    const end = (error: Error) => {
      if (ended) return;
      ended = true;
      feed.destroy();
      if (this.current?.feed !== feed) return; // stopped by us
      this.current = undefined;
      if (!confirmed) {
        fail(error);
        // Listeners of a subscription lost earlier still wait for one: keep trying for them.
        if (this.lost) this.retryLater();
        return;
      }
      this.lost = true;
      this.retryLater();
    };
    feed.on('data', () => this.tellAll());
    feed.on('error', end);
    feed.on('end', () => end(new Error('The live subscription to $all ended')));
    feed.on('close', () => end(new Error('The live subscription to $all closed')));
    return { feed, confirmed: confirmation };
  }

  private retryLater(): void {
    if (this.listeners.size === 0 || this.closed) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      if (this.current || this.listeners.size === 0 || this.closed) return;
      this.subscribed().catch(() => this.retryLater());
    }, this.retryMs);
    this.retry.unref();
  }

  private tellAll(): void {
    for (const listener of this.listeners) listener();
  }

  private stopIfUnused(): void {
    if (this.listeners.size > 0) return;
    clearTimeout(this.retry);
    const stopping = this.current?.feed;
    this.current = undefined;
    if (stopping) {
      stopping
        .unsubscribe()
        .catch(() => {})
        .finally(() => stopping.destroy());
    }
  }
}

/** What this module needs of the client's catch-up subscription to `$all`. */
export interface CatchUpFeed<Item> extends AsyncIterable<Item> {
  unsubscribe(): Promise<void>;
  destroy(): void;
}

/**
 * The port's Subscription over the server's catch-up subscription: its items as `toEvent` makes them
 * (undefined: skipped), an error of the feed thrown from the iterator, and a `close` that ends an
 * iterator waiting for the next event at once. The client's own iterator may never settle once the
 * subscription is cancelled, so a close does not wait for it: it stops waiting, then lets the feed go.
 */
export function subscriptionOver<Item>(
  feed: CatchUpFeed<Item>,
  toEvent: (item: Item) => RecordedEvent | undefined,
  onReleased: () => void,
): Subscription {
  let closed = false;
  let started = false;
  let released = false;
  let stop: () => void = () => {};
  const stopped = new Promise<'closed'>((resolve) => {
    stop = () => resolve('closed');
  });
  const release = async () => {
    if (released) return;
    released = true;
    onReleased();
    await feed.unsubscribe().catch(() => {});
    feed.destroy();
  };
  async function* events(): AsyncGenerator<RecordedEvent> {
    started = true;
    const source = feed[Symbol.asyncIterator]();
    try {
      while (!closed) {
        const next = source.next();
        next.catch(() => {}); // left behind by a close, it may reject as the feed is torn down
        const step = await Promise.race([next, stopped]);
        if (step === 'closed') return;
        if (step.done) throw new Error('The subscription to $all ended without being closed');
        const event = toEvent(step.value);
        if (event) yield event;
      }
    } finally {
      closed = true;
      await release();
    }
  }
  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      closed = true;
      stop();
      await iterator.return(undefined);
      // A generator closed before its first step never runs its `finally`.
      if (!started) await release();
    },
  };
}
