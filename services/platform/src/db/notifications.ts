import pg from 'pg';
import type { Broadcast } from '../coordination';

type Handler = (payload: string) => void;

/** What an adapter that reads its tables from a pool, woken by NOTIFYs on one listening connection, needs. */
export interface NotifiedPoolOptions {
  pool: pg.Pool;
  notifications: PgNotifications;
  /** How long a reader sleeps when no notification wakes it (a missed one costs at most this). */
  idlePollMs?: number;
}

/**
 * One dedicated connection that LISTENs for Postgres notifications and fans them out in-process.
 * After a lost connection it reconnects and wakes every handler with an empty payload, since
 * notifications sent in between are gone: listeners must treat a notification as "look again".
 */
export class PgNotifications {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  /** The one connection runs one query at a time (pg deprecates overlapping queries on a client). */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The connection was lost: the next one to open wakes every handler (whoever opens it). */
  private missedNotifications = false;

  private readonly connectionString: string;

  /** `connectionString`: the server to LISTEN on (its own connection, not one of a pool's). */
  constructor(deps: { connectionString: string }) {
    this.connectionString = deps.connectionString;
  }

  async listen(channel: string, handler: Handler): Promise<() => void> {
    assertChannelName(channel);
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      const client = await this.connection();
      await this.inTurn(() => client.query(`LISTEN ${channel}`));
    } else {
      await this.connection();
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** One channel as a Broadcast, for callers that must not know PostgreSQL is behind it. */
  channel(name: string): Broadcast {
    assertChannelName(name);
    return {
      publish: (payload) => this.publish(name, payload),
      listen: (handler) => this.listen(name, handler),
    };
  }

  /** Wakes this process's listeners of a channel without a round trip (others learn through NOTIFY). */
  wakeLocal(channel: string, payload = ''): void {
    this.dispatch(channel, payload);
  }

  /** Tells this process at once and every other process through NOTIFY (best effort, after commit). */
  async publish(channel: string, payload: string): Promise<void> {
    assertChannelName(channel);
    this.dispatch(channel, payload);
    const client = await this.connection().catch(() => undefined);
    if (client)
      await this.inTurn(() => client.query('SELECT pg_notify($1, $2)', [channel, payload])).catch(() => {});
  }

  /** Ends the connection, also one still being opened (a stop right after start must not leave it open). */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private inTurn<T>(query: () => Promise<T>): Promise<T> {
    const result = this.queue.then(query, query);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private connection(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('the notifications connection is closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'sniplink-listen',
    });
    client.on('notification', (message) => this.dispatch(message.channel, message.payload ?? ''));
    client.on('error', () => this.onLost(client));
    client.on('end', () => this.onLost(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    if (this.missedNotifications) {
      this.missedNotifications = false;
      queueMicrotask(() => this.wakeAll());
    }
    return client;
  }

  /** Lost (the server restarted, or ended the session): LISTEN again, retrying while the server is away. */
  private onLost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.closed) return;
    this.missedNotifications = true;
    const retry = (delay: number) =>
      setTimeout(() => {
        if (this.closed || this.client) return;
        this.connection().catch(() => retry(Math.min(delay * 2, 5_000)));
      }, delay).unref();
    retry(100);
  }

  private wakeAll(): void {
    for (const channel of this.handlers.keys()) this.dispatch(channel, '');
  }

  private dispatch(channel: string, payload: string): void {
    for (const handler of this.handlers.get(channel) ?? []) handler(payload);
  }
}

function assertChannelName(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Bad notification channel name: ${channel}`);
}

/** A promise that settles once, when `resolve` is first called; later calls do nothing. */
export class Signal {
  resolve: () => void = () => {};
  readonly promise = new Promise<void>((resolve) => {
    this.resolve = resolve;
  });
}

/**
 * Sleeps until woken or until the timeout, whichever comes first. A wake before the sleep starts is
 * remembered, so a notification that lands between "read" and "wait" is never lost.
 */
export class Wakeup {
  private pending = false;
  private resolve: (() => void) | undefined;

  wake = (): void => {
    if (this.resolve) {
      const resolve = this.resolve;
      this.resolve = undefined;
      resolve();
    } else {
      this.pending = true;
    }
  };

  sleep(timeoutMs: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.resolve = undefined;
        resolve();
      }, timeoutMs);
      this.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
