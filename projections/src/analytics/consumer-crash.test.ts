import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  clickStreamMissing,
  createTestClickStream,
  type TestClickStream,
} from '@sniplink/test-support/click-stream';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickAnalytics } from './consumer';
import {
  asMessages,
  click,
  expectedLinkTotals,
  labelSums,
  linkTotals,
  newLinkId,
  readModelTotals,
  storedDrained,
  storedOffsets,
  until,
} from './testing';

const CHILD = path.join(import.meta.dirname, 'consumer-child.ts');
const HOLD = 'hold-analytics-offset';
const PARTITIONS = 4;
const BATCH = 50;

const killTest = describe.skipIf(clickStreamMissing('consumer-crash.test.ts'));

killTest('click analytics consumer killed with kill -9 in the middle of a flush', () => {
  let stack: TestStack;
  let subject: TestClickStream;
  beforeAll(async () => {
    stack = await createTestStack();
    subject = createTestClickStream(
      { pool: stack.database.pool, notifications: stack.notifications },
      { partitionCount: PARTITIONS },
    );
  });
  afterAll(async () => {
    await subject.close();
    await stack.cleanup();
  });

  it('keeps offsets and counters together, and after a restart every click is counted once', async () => {
    const links = Array.from({ length: 30 }, newLinkId);
    const devices = ['desktop', 'mobile', 'tablet'] as const;
    const clicks = Array.from({ length: 3_000 }, (_, i) =>
      click(links[i % links.length] as string, `2026-11-${String(1 + (i % 20)).padStart(2, '0')}T10:00:00Z`, {
        device: devices[i % 3],
        country: ['US', 'DE', 'JP', 'BR'][i % 4],
        bot: i % 9 === 0,
      }),
    );
    const { stream } = subject;
    // In publishes of 100, every fifth sent twice under its id (as after an answer that was lost): the
    // stream stores such a copy once (PostgreSQL) or again (Kafka); either way it counts once.
    for (let i = 0; i < clicks.length; i += 100) {
      const batch = asMessages(clicks.slice(i, i + 100));
      await stream.publish(batch, { id: `publish-${i}` });
      if (i % 500 === 0) await stream.publish(batch, { id: `publish-${i}` });
    }
    const stored = sumOf(await stream.endOffsets());
    expect(stored).toBe(subject.kind === 'kafka' ? 3_600 : 3_000);
    const holder = await holdOffsetWritesFrom(stack.database.connectionString, 4 * BATCH);

    const kafka = subject.kafka ? [subject.kafka.topic, subject.kafka.groupId] : [];
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CHILD,
        stack.database.connectionString,
        String(PARTITIONS),
        String(BATCH),
        String(BATCH),
        ...kafka,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout });
    await Promise.race([
      once(lines, 'line'),
      exited.then(() => Promise.reject(new Error('child exited early'))),
    ]);
    // The child's flush has added its counters, and waits at its offset write.
    await holder.untilBlocked();
    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
    // Its server session finds the client gone once it goes on, and rolls the transaction back.
    await holder.release();
    await stack.database.pool.query('DROP TRIGGER test_hold_offsets ON click_consumer_offsets');

    const partial = await readModelTotals(stack.database.db);
    const offsets = await storedOffsets(stack.database.db);
    if (subject.kind === 'postgres') {
      // The PostgreSQL stream's batches are BATCH messages of a partition each, from offset 0.
      expect([...offsets.values()].every((next) => next % BigInt(BATCH) === 0n)).toBe(true);
      expect(Math.max(...[...offsets.values()].map(Number))).toBe(3 * BATCH);
    } else {
      expect(Math.max(...[...offsets.values()].map(Number))).toBeLessThan(4 * BATCH);
    }
    expect(partial.offsets).toBeGreaterThan(0);
    expect(partial).toEqual({
      humans: partial.hourly,
      bots: partial.bots,
      hourly: partial.hourly,
      platform: partial.hourly,
      quarters: partial.hourly,
      offsets: partial.offsets,
    });
    // Every message below the offsets counted, but the later copies of a publish (Kafka stores them).
    if (subject.kind === 'postgres') expect(partial.humans + partial.bots).toBe(partial.offsets);
    else expect(partial.humans + partial.bots).toBeLessThanOrEqual(partial.offsets);

    const restarted = new ClickAnalytics(
      { db: stack.database.db, stream, log: stack.log },
      // Kafka keeps the killed member in its group until its session times out (30 s): the restarted
      // consumer joins a group of its own, as it may, its offsets being the read model's.
      { maxBatchSize: BATCH, groupId: subject.kafka && `${subject.kafka.groupId}-restarted` },
    );
    restarted.start();
    await storedDrained(stack.database.db, stream);
    await restarted.stop();
    expect(await linkTotals(stack.database.db)).toEqual(expectedLinkTotals(clicks));
    // Every message after the stored offsets read once: counted, or a later copy of a publish.
    const { counted, duplicates } = restarted.status();
    expect(counted + duplicates).toBe(stored - partial.offsets);
    if (subject.kind === 'postgres') expect(duplicates).toBe(0);
    const humanClicks = clicks.filter((c) => !c.bot).length;
    expect(await readModelTotals(stack.database.db)).toMatchObject({
      offsets: stored,
      platform: humanClicks,
      quarters: humanClicks,
    });
    const humans = expectedLinkTotals(clicks);
    for (const { linkId, clicks: sum } of await labelSums(stack.database.db)) {
      expect(sum).toBe(humans.get(linkId)?.clicks);
    }
  });
});

const sumOf = (offsets: Map<number, bigint>) => Number([...offsets.values()].reduce((a, b) => a + b, 0n));

/**
 * A trigger makes any offset write that reaches `from` wait for an advisory lock this holder keeps, so
 * the consumer's transaction stays open, everything but its offset written, until the test kills it.
 */
async function holdOffsetWritesFrom(connectionString: string, from: number) {
  const holder = new pg.Client({ connectionString });
  await holder.connect();
  await holder.query('SELECT pg_advisory_lock(hashtext($1))', [HOLD]);
  await holder.query(`
    CREATE FUNCTION test_hold_offsets() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.next_offset >= ${from} THEN PERFORM pg_advisory_xact_lock_shared(hashtext('${HOLD}')); END IF;
      RETURN NEW;
    END $$`);
  await holder.query(`
    CREATE TRIGGER test_hold_offsets BEFORE INSERT OR UPDATE ON click_consumer_offsets
    FOR EACH ROW EXECUTE FUNCTION test_hold_offsets()`);
  return {
    untilBlocked: () =>
      until(async () => {
        const { rows } = await holder.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks
           WHERE locktype = 'advisory' AND NOT granted
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return (rows[0]?.waiting ?? 0) > 0;
      }, 30_000),
    release: async () => {
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [HOLD]);
      await holder.end();
    },
  };
}
