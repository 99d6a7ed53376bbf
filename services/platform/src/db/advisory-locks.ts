import type pg from 'pg';
import type { ExclusiveLocks, HeldLock } from '../coordination';

const TRY_LOCK = 'SELECT pg_try_advisory_lock(hashtext($1)) AS locked';
const UNLOCK = 'SELECT pg_advisory_unlock(hashtext($1))';

/**
 * Exclusive locks as PostgreSQL session advisory locks: each held lock keeps one pooled connection, and
 * is lost with it (the server frees a session's locks when the session ends).
 */
export class PgAdvisoryLocks implements ExclusiveLocks {
  constructor(private readonly deps: { pool: pg.Pool }) {}

  async tryAcquire(name: string, onLost?: () => void): Promise<HeldLock | undefined> {
    const client = await this.deps.pool.connect();
    let lost = false;
    const onError = () => {
      lost = true;
      onLost?.();
    };
    client.on('error', onError);
    let locked = false;
    try {
      const { rows } = await client.query<{ locked: boolean }>(TRY_LOCK, [name]);
      locked = rows[0]?.locked === true;
    } finally {
      if (!locked) {
        client.off('error', onError);
        client.release(lost);
      }
    }
    if (!locked) return undefined;
    return {
      lost: () => lost,
      release: async () => {
        const unlocked =
          !lost &&
          (await client.query(UNLOCK, [name]).then(
            () => true,
            () => false,
          ));
        client.off('error', onError);
        // A connection that may still hold the lock is closed rather than pooled: that frees the lock.
        client.release(!unlocked);
      },
    };
  }
}
