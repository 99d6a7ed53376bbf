import { holdCommitsOf, installCommitHold } from '@sniplink/test-support/commit-hold';
import { createTestDatabase, testDatabaseWithNotifications } from '@sniplink/test-support/database';
import { beforeAll, describe, expect, it } from 'vitest';
import { PgNotifications } from '../db/notifications';
import { clickStreamContract } from './click-stream.contract';
import { partitionFor } from './port';
import { PostgresClickStream } from './postgres';

clickStreamContract('postgres', async () => {
  const database = await createTestDatabase();
  const notifications = new PgNotifications({ connectionString: database.connectionString });
  await installCommitHold(database.pool, { table: 'cs_chunks', column: 'messages::jsonb->0->>0' }); // the first key
  return {
    stream: new PostgresClickStream({
      pool: database.pool,
      notifications,
      partitionCount: 4,
      idlePollMs: 200,
    }),
    holdCommits: (key) => holdCommitsOf(database.connectionString, key),
    cleanup: async () => {
      await notifications.close();
      await database.drop();
    },
  };
});

describe('postgres click stream: publishing', () => {
  const testDb = testDatabaseWithNotifications();
  let stream: PostgresClickStream<string>;

  beforeAll(async () => {
    stream = new PostgresClickStream({
      pool: testDb().database.pool,
      notifications: testDb().notifications,
      partitionCount: 4,
    });
  });

  const batchOf = (key: string, count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({ key, value: `${key}#${from + i}` }));

  /** Every message of `partition` from `from` on, in offset order. */
  async function readPartition(partition: number, from: bigint) {
    const read: { offset: bigint; value: unknown }[] = [];
    for (let next = from; ; ) {
      const batch = (await stream.fetch(new Map([[partition, next]]), 1_000)).find(
        (b) => b.partition === partition,
      );
      if (!batch) return read;
      read.push(...batch.messages.map((m) => ({ offset: m.offset, value: m.value })));
      next = batch.nextOffset;
    }
  }

  it('stores a partition past a chunk as consecutive chunks, every message at its own offset', async () => {
    const key = 'one-busy-link';
    const partition = partitionFor(key, stream.partitionCount);
    const before = (await stream.endOffsets()).get(partition) ?? 0n;
    await stream.publish(batchOf(key, 2_345));
    await stream.publish(batchOf(key, 10, 2_345));
    const read = await readPartition(partition, before);
    expect(read.map((m) => m.value)).toEqual(batchOf(key, 2_355).map((m) => m.value));
    expect(read.map((m) => m.offset)).toEqual(read.map((_, i) => before + BigInt(i)));
    const { rows } = await testDb().database.pool.query<{ first: string; last: string }>(
      `SELECT first_offset::text AS first, last_offset::text AS last FROM cs_chunks
       WHERE partition = $1 AND first_offset >= $2 ORDER BY first_offset`,
      [partition, String(before)],
    );
    const b = Number(before);
    expect(rows.map((r) => [Number(r.first) - b, Number(r.last) - b])).toEqual([
      [0, 999],
      [1_000, 1_999],
      [2_000, 2_344],
      [2_345, 2_354],
    ]);
  });

  it('refuses a publish, storing none of it, while a partition row is missing, and stores it once recreated', async () => {
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const messages = keys.flatMap((key) => batchOf(`gone-${key}`, 3));
    const partitions = new Set(messages.map((m) => partitionFor(m.key, stream.partitionCount)));
    expect(partitions.size).toBeGreaterThan(1);
    const missing = Math.max(...partitions);
    await stream.publish([{ key: 'warm-up', value: 'x' }]);
    const before = await stream.endOffsets();
    const stored = await testDb().database.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM cs_chunks',
    );
    await testDb().database.pool.query('DELETE FROM cs_partitions WHERE partition = $1', [missing]);

    await expect(stream.publish(messages, { id: 'publish-while-missing' })).rejects.toThrow(
      /partitions are missing/,
    );
    const after = await testDb().database.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM cs_chunks',
    );
    expect(after.rows[0]?.n).toBe(stored.rows[0]?.n);

    // The click buffer sends it again under the same id: the partition comes back and it is stored once.
    await stream.publish(messages, { id: 'publish-while-missing' });
    await stream.publish(messages, { id: 'publish-while-missing' });
    for (const partition of partitions) {
      const from = partition === missing ? 0n : (before.get(partition) ?? 0n);
      const read = await readPartition(partition, from);
      const expected = messages.filter((m) => partitionFor(m.key, stream.partitionCount) === partition);
      expect(read.map((m) => m.value)).toEqual(expected.map((m) => m.value));
    }
  });
});

describe('postgres click stream: a member whose lock connection is lost', () => {
  const testDb = testDatabaseWithNotifications();
  let stream: PostgresClickStream<string>;

  beforeAll(async () => {
    stream = new PostgresClickStream({
      pool: testDb().database.pool,
      notifications: testDb().notifications,
      partitionCount: 2,
      idlePollMs: 100,
    });
  });

  const heldLocks = `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

  /** The server ends the connection holding the group's lock, as a restarting server does. */
  async function cutLockConnection(): Promise<void> {
    const { rowCount } = await testDb().database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM (${heldLocks}) AS held`,
    );
    expect(rowCount).toBe(1);
  }

  it('stops reading, so that once a member holds the lock again every message is read once', async () => {
    const read: { member: string; value: string }[] = [];
    const member = (name: string) =>
      stream.consume({
        groupId: 'lock-lost',
        eachBatch: async (batch) => {
          for (const message of batch.messages) read.push({ member: name, value: message.value });
        },
      });
    const members = [member('first')];
    await members[0]?.active;
    members.push(member('second'));
    await stream.publish([{ key: 'k', value: 'before' }]);
    await expect.poll(() => read.map((r) => r.member), { timeout: 5_000 }).toEqual(['first']);

    await cutLockConnection();
    // Either member may take the lock again (the first competes as soon as it notices the loss).
    await expect
      .poll(async () => (await testDb().database.pool.query(heldLocks)).rowCount, { timeout: 5_000 })
      .toBe(1);
    for (const value of ['after-1', 'after-2', 'after-3']) await stream.publish([{ key: 'k', value }]);
    await expect
      .poll(() => read.filter((r) => r.value.startsWith('after')).length, { timeout: 5_000 })
      .toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a second reader would have read them by now
    expect(read.filter((r) => r.value.startsWith('after')).map((r) => r.value)).toEqual([
      'after-1',
      'after-2',
      'after-3',
    ]);
    await Promise.all(members.map((m) => m.stop()));
  });
});
