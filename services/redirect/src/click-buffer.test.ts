import { setTimeout as sleep } from 'node:timers/promises';
import { type Click, readClickMessage } from '@sniplink/contracts';
import {
  type ClickStream,
  type ConsumeOptions,
  type Consumer,
  createLogger,
  type Logger,
  type Offsets,
  PostgresClickStream,
  type PublishOptions,
  type StreamMessage,
} from '@sniplink/platform';
import { sampleClick } from '@sniplink/test-support/clicks';
import { testDatabaseWithNotifications } from '@sniplink/test-support/database';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClickBuffer } from './click-buffer';

/**
 * Wraps the real adapter to watch it: batch sizes, how many publishes overlap, and a switch that makes
 * publish reject as a click stream that is down would.
 */
class WatchedStream implements ClickStream<string> {
  readonly batches: number[] = [];
  readonly attemptsAt: number[] = [];
  maxInFlight = 0;
  down = false;
  /** This many publishes are stored, then answer with an error anyway (the answer lost on the way). */
  answersToLose = 0;
  private inFlight = 0;

  constructor(private readonly inner: ClickStream<string>) {}

  get partitionCount(): number {
    return this.inner.partitionCount;
  }

  async publish(messages: StreamMessage<string>[], options?: PublishOptions): Promise<void> {
    this.attemptsAt.push(performance.now());
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.down) throw new Error('click stream down');
      await this.inner.publish(messages, options);
      if (this.answersToLose > 0) {
        this.answersToLose--;
        throw new Error('connection lost after the commit');
      }
      this.batches.push(messages.length);
    } finally {
      this.inFlight--;
    }
  }

  consume(options: ConsumeOptions<string>): Consumer {
    return this.inner.consume(options);
  }
  committedOffsets(groupId: string): Promise<Offsets> {
    return this.inner.committedOffsets(groupId);
  }
  commitOffsets(groupId: string, offsets: Offsets): Promise<void> {
    return this.inner.commitOffsets(groupId, offsets);
  }
  endOffsets(): Promise<Offsets> {
    return this.inner.endOffsets();
  }
  deleteRecords(before: Offsets, options: { publishedBefore: Date }): Promise<number> {
    return this.inner.deleteRecords(before, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const testDb = testDatabaseWithNotifications();
let postgres: PostgresClickStream<string>;
let stream: WatchedStream;
let log: Logger;
let buffers: ClickBuffer[] = [];

beforeAll(async () => {
  postgres = new PostgresClickStream<string>({
    pool: testDb().database.pool,
    notifications: testDb().notifications,
    partitionCount: 4,
  });
});

beforeEach(async () => {
  await testDb().database.pool.query('TRUNCATE cs_chunks, cs_publishes');
  stream = new WatchedStream(postgres);
  log = createLogger('silent');
  vi.spyOn(log, 'warn');
  vi.spyOn(log, 'error');
  vi.spyOn(log, 'info');
});

afterEach(async () => {
  await Promise.all(buffers.map((buffer) => buffer.close(1_000)));
  buffers = [];
});

function newBuffer(options: { maxBatch?: number; lingerMs?: number; capacity?: number } = {}): ClickBuffer {
  const buffer = new ClickBuffer({ stream, log, ...options });
  buffers.push(buffer);
  return buffer;
}

let serial = 0;
const linkIds = Array.from(
  { length: 50 },
  (_, i) => `0190aaaa-0000-7000-8000-${i.toString(16).padStart(12, '0')}`,
);

/** A click whose `code` carries its push order, so order per link can be checked in the stored log. */
function click(link = serial % linkIds.length): Click {
  const n = serial++;
  return sampleClick(linkIds[link] ?? '', {
    id: `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`,
    code: String(n),
  });
}

interface Pushed {
  pushed: Click[];
  accepted: Click[];
  /** Per push, in ms: the 99th percentile and the mean (the slowest is a GC pause or the OS's pick). */
  p99Ms: number;
  meanMs: number;
}

function pushMany(buffer: ClickBuffer, count: number): Pushed {
  const pushed: Click[] = [];
  const accepted: Click[] = [];
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const next = click();
    const started = performance.now();
    const ok = buffer.push(next);
    durations.push(performance.now() - started);
    pushed.push(next);
    if (ok) accepted.push(next);
  }
  durations.sort((a, b) => a - b);
  const p99Ms = durations[Math.floor(durations.length * 0.99)] ?? 0;
  const meanMs = durations.reduce((sum, d) => sum + d, 0) / count;
  return { pushed, accepted, p99Ms, meanMs };
}

/** A redirect must not notice the push: microseconds, whatever the stream is doing. */
function expectInstant({ p99Ms, meanMs }: Pushed): void {
  expect(meanMs).toBeLessThan(0.05);
  expect(p99Ms).toBeLessThan(0.5);
}

interface StoredClick {
  key: string;
  id: string;
  n: number;
}

async function storedClicks(): Promise<StoredClick[]> {
  const { rows } = await testDb().database.pool.query<{ key: string; value: string }>(
    `SELECT m.message->>0 AS key, m.message->>1 AS value
     FROM cs_chunks c CROSS JOIN LATERAL jsonb_array_elements(c.messages::jsonb) WITH ORDINALITY AS m(message, i)
     ORDER BY c.partition, c.first_offset, m.i`,
  );
  return rows.map((row) => {
    const click = readClickMessage(row.key, row.value);
    if (!click) throw new Error(`not a click message: ${row.value}`);
    return { key: row.key, id: click.id, n: Number(click.code) };
  });
}

/** Exactly the expected clicks, each once, and per link key in the order they were pushed. */
async function expectDeliveredExactlyOnceInOrder(expected: Click[]): Promise<void> {
  const stored = await storedClicks();
  expect(stored).toHaveLength(expected.length);
  expect(new Set(stored.map((s) => s.id))).toEqual(new Set(expected.map((c) => c.id)));
  const byKey = new Map<string, number[]>();
  for (const s of stored) byKey.set(s.key, [...(byKey.get(s.key) ?? []), s.n]);
  for (const [key, order] of byKey) {
    expect(order, `order of ${key}`).toEqual([...order].sort((a, b) => a - b));
    expect(key).toBe(expected.find((c) => Number(c.code) === order[0])?.linkId);
  }
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

describe('ClickBuffer on the PostgreSQL click stream', () => {
  it('delivers 10,000 clicks exactly once, in order per link, in batches of 500, one publish at a time', async () => {
    const buffer = newBuffer();
    const pushes = pushMany(buffer, 10_000);
    const { pushed } = pushes;
    expectInstant(pushes);
    expect(stream.batches).toEqual([]); // push only queues: nothing was published inside it

    expect(await buffer.flush(20_000)).toBe(true);
    await expectDeliveredExactlyOnceInOrder(pushed);
    expect(stream.batches).toEqual(Array(20).fill(500));
    expect(stream.maxInFlight).toBe(1);
    expect(buffer.stats()).toEqual({ buffered: 0, published: 10_000, dropped: 0, failedPublishes: 0 });
  });

  it('keeps order per link when clicks keep arriving while batches are in flight', async () => {
    const buffer = newBuffer();
    const pushed: Click[] = [];
    for (let turn = 0; turn < 100; turn++) {
      pushed.push(...pushMany(buffer, 100).pushed);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => buffer.stats().buffered === 0);
    await expectDeliveredExactlyOnceInOrder(pushed);
    expect(stream.maxInFlight).toBe(1);
    expect(Math.max(...stream.batches)).toBeLessThanOrEqual(500);
    expect(stream.batches.length).toBeLessThan(100); // batched, not one publish per arrival
  });

  it('publishes a lone click about 50 ms after it arrived', async () => {
    const buffer = newBuffer();
    const started = performance.now();
    buffer.push(click());
    await sleep(25);
    expect(stream.attemptsAt).toHaveLength(0);
    await until(() => stream.batches.length === 1, 2_000);
    const publishedAfter = (stream.attemptsAt[0] ?? 0) - started;
    expect(publishedAfter).toBeGreaterThanOrEqual(45);
    expect(publishedAfter).toBeLessThan(150);
    expect(await storedClicks()).toHaveLength(1);
  });

  it('sends a full batch at once without waiting for the linger', async () => {
    const buffer = newBuffer({ lingerMs: 60_000 });
    const started = performance.now();
    pushMany(buffer, 500);
    await until(() => stream.batches.length === 1, 2_000);
    expect((stream.attemptsAt[0] ?? 0) - started).toBeLessThan(20);
    expect(buffer.stats().published).toBe(500);
  });

  it('flush() publishes everything buffered before it resolves, without waiting for the linger', async () => {
    const buffer = newBuffer({ lingerMs: 60_000 });
    const { pushed } = pushMany(buffer, 1_234);
    expect(await buffer.flush()).toBe(true);
    await expectDeliveredExactlyOnceInOrder(pushed);
    expect(stream.batches).toEqual([500, 500, 234]);
    expect(await buffer.flush()).toBe(true); // nothing left: resolves at once
  });

  it('close() flushes, then refuses new clicks as counted drops', async () => {
    const buffer = newBuffer({ lingerMs: 60_000 });
    const { pushed } = pushMany(buffer, 42);
    expect(await buffer.close()).toBe(true);
    await expectDeliveredExactlyOnceInOrder(pushed);
    expect(buffer.push(click())).toBe(false);
    expect(buffer.stats()).toMatchObject({ buffered: 0, published: 42, dropped: 1 });
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ dropped: 1, closed: true }),
      expect.stringContaining('dropped'),
    );
  });

  it('click stream down: pushes stay instant, the buffer holds up to capacity, drops are counted, recovery delivers each held click once', async () => {
    const buffer = newBuffer({ maxBatch: 100, lingerMs: 10, capacity: 1_000 });
    stream.down = true;

    const first = pushMany(buffer, 600);
    await until(() => buffer.stats().failedPublishes >= 4, 5_000);
    const second = pushMany(buffer, 900); // 400 fit, 500 do not
    expectInstant(first);
    expectInstant(second);
    expect(buffer.stats()).toMatchObject({ buffered: 1_000, published: 0, dropped: 500 });
    // The first drop is reported at once; the rest wait for the 10 s window (or close) to end.
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ dropped: 1, droppedTotal: 1, capacity: 1_000 }),
      'click buffer full or closed: clicks dropped',
    );

    // The same batch is retried with backoff: 100, 200, 400 ms…
    const gaps = stream.attemptsAt.slice(1).map((at, i) => at - (stream.attemptsAt[i] ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThanOrEqual(395);

    stream.down = false;
    const recovering = performance.now();
    expect(await buffer.flush(10_000)).toBe(true); // cuts the backoff pause short
    expect(performance.now() - recovering).toBeLessThan(2_000);
    await expectDeliveredExactlyOnceInOrder([...first.accepted, ...second.accepted]);
    expect(first.accepted).toHaveLength(600);
    expect(second.accepted).toHaveLength(400);
    expect(log.info).toHaveBeenCalledWith(expect.anything(), 'click stream publishing again');

    await buffer.close();
    const reported = vi
      .mocked(log.warn)
      .mock.calls.map(([fields]) => fields as unknown as { dropped?: number; closed?: boolean })
      .filter((fields) => typeof fields.dropped === 'number')
      .reduce((sum, fields) => sum + (fields.dropped ?? 0), 0);
    expect(reported).toBe(500); // every drop reached the log, the last 499 in one line at close
  });

  it('a publish stored but answered with an error: the retry stores nothing twice', async () => {
    const buffer = newBuffer({ maxBatch: 100, lingerMs: 10 });
    stream.answersToLose = 3;
    const sent = pushMany(buffer, 1_000);
    expect(await buffer.flush(10_000)).toBe(true);
    expect(stream.answersToLose).toBe(0);
    expect(buffer.stats()).toMatchObject({ buffered: 0, published: 1_000, failedPublishes: 3 });
    await expectDeliveredExactlyOnceInOrder(sent.accepted);
  });

  it('PostgreSQL table gone (renamed): publishes fail for real, then every held click goes through once', async () => {
    const buffer = newBuffer({ maxBatch: 100, lingerMs: 10, capacity: 2_000 });
    await testDb().database.pool.query('ALTER TABLE cs_chunks RENAME TO cs_chunks_offline');
    let restored = false;
    try {
      const during = pushMany(buffer, 2_500);
      await until(() => buffer.stats().failedPublishes >= 3, 5_000);
      expectInstant(during);
      expect(buffer.stats()).toMatchObject({ buffered: 2_000, published: 0, dropped: 500 });
      expect(log.warn).toHaveBeenCalledWith(
        expect.objectContaining({
          err: expect.objectContaining({ message: expect.stringContaining('cs_chunks') }),
        }),
        'click stream publish failed; keeping the batch and retrying',
      );

      await testDb().database.pool.query('ALTER TABLE cs_chunks_offline RENAME TO cs_chunks');
      restored = true;
      expect(await buffer.flush(10_000)).toBe(true);
      await expectDeliveredExactlyOnceInOrder(during.accepted);
      expect(buffer.stats()).toMatchObject({ buffered: 0, published: 2_000, dropped: 500 });
    } finally {
      if (!restored) await testDb().database.pool.query('ALTER TABLE cs_chunks_offline RENAME TO cs_chunks');
    }
  });

  it('PostgreSQL not answering (a lock holds every publish): redirects go on, flush gives up at its timeout, the release delivers all', async () => {
    const buffer = newBuffer({ maxBatch: 100, lingerMs: 10, capacity: 1_000 });
    const locker = new pg.Client({ connectionString: testDb().database.connectionString });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE cs_partitions IN ACCESS EXCLUSIVE MODE');
      const during = pushMany(buffer, 1_500);
      expectInstant(during);
      await until(() => stream.attemptsAt.length === 1, 2_000);
      await sleep(100);
      expect(stream.attemptsAt).toHaveLength(1); // the one publish hangs; nothing overtakes it
      expect(buffer.stats()).toMatchObject({ buffered: 1_000, published: 0, dropped: 500 });

      expect(await buffer.flush(200)).toBe(false);
      expect(log.error).toHaveBeenCalledWith(
        expect.objectContaining({ unpublished: 1_000 }),
        'click flush timed out; these clicks are not in the click stream',
      );

      await locker.query('COMMIT');
      expect(await buffer.flush(10_000)).toBe(true);
      await expectDeliveredExactlyOnceInOrder(during.accepted);
      expect(stream.maxInFlight).toBe(1);
    } finally {
      await locker.end();
    }
  });

  it('a pool that has ended: close() gives up at its timeout, says how many clicks it leaves, stops retrying', async () => {
    const dead = new pg.Pool({ connectionString: testDb().database.connectionString });
    await dead.end();
    const deadStream = new PostgresClickStream<string>({
      pool: dead,
      notifications: testDb().notifications,
      partitionCount: 4,
    });
    const watched = new WatchedStream(deadStream);
    const buffer = new ClickBuffer({ stream: watched, log, lingerMs: 5 });
    pushMany(buffer, 30);
    await until(() => buffer.stats().failedPublishes >= 1, 2_000);

    expect(await buffer.close(300)).toBe(false);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ unpublished: 30 }),
      'click flush timed out; these clicks are not in the click stream',
    );
    const attempts = watched.attemptsAt.length;
    await sleep(500);
    expect(watched.attemptsAt).toHaveLength(attempts); // no retry after close
    expect(buffer.stats()).toMatchObject({ buffered: 30, published: 0 });
  });
});
