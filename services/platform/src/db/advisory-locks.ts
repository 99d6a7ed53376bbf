import type pg from 'pg';
import type { ExclusiveLocks, HeldLock } from '../coordination';

const TRY_LOCK = 'SELECT pg_try_advisory_lock(hashtext($1)) AS locked';
const UNLOCK = 'SELECT pg_advisory_unlock(hashtext($1))';

/** The one pooled connection whose session holds this process's locks, and who is told if it fails. */
interface LockSession {
  client: pg.PoolClient;
  /** Lock name -> its holder's `onLost`. */
  held: Map<string, (() => void) | undefined>;
  lost: boolean;
  /** Handed back to the pool: a caller that got it a moment before must open another. */
  closed: boolean;
  onError: () => void;
  /** The session's last query: a connection runs one query at a time, so each waits for the one before. */
  tail: Promise<unknown>;
}

/** Runs `text` on the session after the queries before it (pg does not queue them for its callers). */
function query<Row extends pg.QueryResultRow>(session: LockSession, text: string, name: string) {
  const result = session.tail.then(() => session.client.query<Row>(text, [name]));
  session.tail = result.catch(() => undefined);
  return result;
}

/**
 * Exclusive locks as PostgreSQL session advisory locks. Every lock this instance holds sits on ONE pooled
 * connection (a process runs a projection runner per read model, each holding its lock for as long as it
 * runs: a connection each would take half the pool), taken when the first lock is and given back when the
 * last is released. A session's locks are re-entrant in PostgreSQL, so a name held here is refused here
 * without asking the server. When the connection fails, the server frees all of its locks: every holder
 * is told, and the next lock taken opens a new session.
 */
export class PgAdvisoryLocks implements ExclusiveLocks {
  private session: LockSession | undefined;
  private opening: Promise<LockSession> | undefined;

  constructor(private readonly deps: { pool: pg.Pool }) {}

  async tryAcquire(name: string, onLost?: () => void): Promise<HeldLock | undefined> {
    let session = await this.openSession();
    while (session.closed) session = await this.openSession();
    if (session.held.has(name)) return undefined;
    // Reserved before the server is asked: a concurrent call for the same name is refused here, and the
    // session is not handed back while the question is out.
    session.held.set(name, onLost);
    const locked = await query<{ locked: boolean }>(session, TRY_LOCK, name).then(
      ({ rows }) => rows[0]?.locked === true,
      () => false,
    );
    if (!locked || session.lost) {
      session.held.delete(name);
      this.closeIfIdle(session);
      return undefined;
    }
    let released = false;
    return {
      lost: () => session.lost,
      release: async () => {
        if (released) return;
        released = true;
        if (!session.lost) await query(session, UNLOCK, name).catch(() => this.fail(session));
        session.held.delete(name);
        this.closeIfIdle(session);
      },
    };
  }

  private async openSession(): Promise<LockSession> {
    if (this.session && !this.session.lost) return this.session;
    this.opening ??= this.deps.pool.connect().then(
      (client) => {
        const session: LockSession = {
          client,
          held: new Map(),
          lost: false,
          closed: false,
          onError: () => {},
          tail: Promise.resolve(),
        };
        session.onError = () => this.fail(session);
        client.on('error', session.onError);
        this.session = session;
        this.opening = undefined;
        return session;
      },
      (error: unknown) => {
        this.opening = undefined;
        throw error;
      },
    );
    return this.opening;
  }

  /** The connection failed: its locks are gone. Every holder is told; the next lock opens a new session. */
  private fail(session: LockSession): void {
    if (session.lost) return;
    session.lost = true;
    if (this.session === session) this.session = undefined;
    for (const onLost of session.held.values()) onLost?.();
    this.closeIfIdle(session);
  }

  /** No lock left on the session: its connection goes back to the pool (closed if it failed). */
  private closeIfIdle(session: LockSession): void {
    if (session.held.size > 0 || session.closed) return;
    session.closed = true;
    if (this.session === session) this.session = undefined;
    session.client.off('error', session.onError);
    session.client.release(session.lost);
  }
}
