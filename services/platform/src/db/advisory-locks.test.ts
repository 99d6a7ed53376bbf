import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgAdvisoryLocks } from './advisory-locks';

describe('PgAdvisoryLocks', () => {
  let database: TestDatabase;
  let locks: PgAdvisoryLocks;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    locks = new PgAdvisoryLocks({ pool: database.pool });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('gives a lock to one holder at a time, and to the next once it is released', async () => {
    const first = await locks.tryAcquire('projection:links');
    expect(first).toBeDefined();
    expect(await locks.tryAcquire('projection:links')).toBeUndefined();
    const other = await locks.tryAcquire('projection:users'); // another name is another lock
    expect(other).toBeDefined();
    await first?.release();
    await other?.release();
    const next = await locks.tryAcquire('projection:links');
    expect(next).toBeDefined();
    await next?.release();
  });

  it('holds every lock of the process on one connection, and gives it back with the last', async () => {
    const names = ['projection:a', 'projection:b', 'projection:c', 'projection:d'];
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    // Asked all at once, as the runners do at start: one query at a time on the connection.
    const held = await Promise.all(names.map((name) => locks.tryAcquire(name)));
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
    expect(held.every((lock) => lock !== undefined)).toBe(true);
    const holders = async () =>
      (
        await database.pool.query<{ pid: number }>(
          `SELECT DISTINCT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        )
      ).rows.length;
    expect(await holders()).toBe(1);
    for (const lock of held) await lock?.release();
    expect(await holders()).toBe(0);
    // The connection is back in the pool, not leaked: the pool can still hand out all of its connections.
    expect(database.pool.totalCount - database.pool.idleCount).toBe(0);
  });

  it("tells the holder when its connection is lost, and the lock is free for another, the holder's release too", async () => {
    let told = false;
    const held = await locks.tryAcquire('projection:lost', () => {
      told = true;
    });
    expect(held?.lost()).toBe(false);
    await database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
       WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    await expect.poll(() => told, { timeout: 10_000 }).toBe(true);
    expect(held?.lost()).toBe(true);
    await held?.release(); // does not throw, and does not pool the dead connection
    const next = await locks.tryAcquire('projection:lost');
    expect(next).toBeDefined();
    await next?.release();
    expect(await database.pool.query('SELECT 1 AS ok')).toMatchObject({ rows: [{ ok: 1 }] });
  });
});
