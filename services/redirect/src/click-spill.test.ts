import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Click } from '@sniplink/contracts';
import {
  createLogger,
  PostgresClickStream,
  type PublishOptions,
  type StreamMessage,
} from '@sniplink/platform';
import { sampleClick } from '@sniplink/test-support/clicks';
import { testDatabaseWithNotifications } from '@sniplink/test-support/database';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClickBuffer, type ClickPublisher } from './click-buffer';
import { ClickSpill } from './click-spill';
import { SpillFiles } from './spill-files';

/** The real click stream, with a switch that makes it refuse (as one that is down) or answer late. */
class SwitchableStream implements ClickPublisher {
  down = false;
  /** Each publish waits this long, then is stored: an answer that comes after the caller gave up. */
  lateByMs = 0;
  constructor(private readonly inner: PostgresClickStream<string>) {}

  async publish(messages: StreamMessage<string>[], options?: PublishOptions): Promise<void> {
    if (this.down) throw new Error('click stream down (test)');
    if (this.lateByMs > 0) await sleep(this.lateByMs);
    await this.inner.publish(messages, options);
  }
}

const TARGET = 'test-db';
const log = createLogger('silent');
const testDb = testDatabaseWithNotifications();
let stream: SwitchableStream;
let dir: string;
const opened: { close(): Promise<void> }[] = [];

beforeEach(async () => {
  await testDb().database.pool.query('TRUNCATE cs_chunks, cs_publishes');
  const postgres = new PostgresClickStream<string>({
    pool: testDb().database.pool,
    notifications: testDb().notifications,
    partitionCount: 1,
  });
  stream = new SwitchableStream(postgres);
  dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'sniplink-spill-')), 'click-spill');
});
afterEach(async () => {
  for (const spill of opened.splice(0)) await spill.close();
  await rm(path.dirname(dir), { recursive: true, force: true });
});

async function openSpill(options: { maxBytes?: number; spillAfterMs?: number } = {}): Promise<ClickSpill> {
  const files = new SpillFiles({ dir, maxBytes: options.maxBytes ?? 1024 * 1024, target: TARGET, log });
  const spill = new ClickSpill({ stream, files, log, spillAfterMs: options.spillAfterMs });
  await spill.open();
  opened.push(spill);
  return spill;
}

/** `count` messages of one link: `${name}-0`, `${name}-1`, ... */
const batchOf = (name: string, count: number): StreamMessage<string>[] =>
  Array.from({ length: count }, (_, i) => ({ key: 'link-1', value: `${name}-${i}` }));

/** Every message value in the click log, in offset order (one partition). */
async function stored(): Promise<string[]> {
  const { rows } = await testDb().database.pool.query<{ messages: string }>(
    'SELECT messages FROM cs_chunks ORDER BY first_offset',
  );
  return rows.flatMap((row) => (JSON.parse(row.messages) as [string, string][]).map(([, value]) => value));
}

const click = (n: number): Click =>
  sampleClick('0190aaaa-0000-7000-8000-000000000001', { id: `click-${n}`, code: `c${n}` });

const spillFiles = async () => (await readdir(dir)).filter((name) => name.endsWith('.spill'));

describe('the click spill', () => {
  it('keeps what the stream refuses in a file, replays it in order once the stream is back, then deletes it', async () => {
    const spill = await openSpill();
    stream.down = true;
    await spill.publish(batchOf('a', 3), { id: 'a' });
    await spill.publish(batchOf('b', 2), { id: 'b' });
    expect((await spillFiles()).length).toBeGreaterThan(0);
    expect(spill.stats()).toMatchObject({ ok: true, spilled: 5, replayed: 0 });
    expect(await stored()).toEqual([]);

    stream.down = false;
    // Once anything is spilled, new batches queue behind it rather than overtake it.
    await spill.publish(batchOf('c', 1), { id: 'c' });
    await expect.poll(() => spill.stats().replayed, { timeout: 10_000 }).toBe(6);
    expect(await stored()).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1', 'c-0']);
    await expect.poll(spillFiles).toEqual([]);
    expect(spill.stats()).toMatchObject({ files: 0, bytes: 0 });

    await spill.publish(batchOf('d', 1), { id: 'd' }); // straight to the stream again
    expect(await stored()).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1', 'c-0', 'd-0']);
  });

  it('stores once a batch whose late answer it did not wait for: the replay carries its publish id', async () => {
    const spill = await openSpill({ spillAfterMs: 100 });
    stream.lateByMs = 600; // the publish commits after the spill has given up on it and written it down
    await spill.publish(batchOf('late', 4), { id: 'late-batch' });
    expect(spill.stats().spilled).toBe(4);
    stream.lateByMs = 0;
    await expect.poll(() => spill.stats().replayed, { timeout: 10_000 }).toBe(4);
    await sleep(800); // the late publish has committed by now, too
    expect(await stored()).toEqual(['late-0', 'late-1', 'late-2', 'late-3']);
  });

  it('holds at most its budget; past it the click buffer keeps the clicks, drops past its capacity, and counts them', async () => {
    const spill = await openSpill({ maxBytes: 1_500 });
    const buffer = new ClickBuffer({ stream: spill, log, maxBatch: 5, lingerMs: 1, capacity: 20 });
    stream.down = true;
    let pushed = 0;
    for (; pushed < 200; pushed++) {
      buffer.push(click(pushed));
      if (pushed % 5 === 4) await sleep(5); // lets the buffer hand its batches on
    }
    await expect.poll(() => buffer.stats().dropped, { timeout: 10_000 }).toBeGreaterThan(0);
    const { bytes, maxBytes, refusedBatches, ok } = spill.stats();
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    expect(refusedBatches).toBeGreaterThan(0);
    expect(ok).toBe(false);
    expect(buffer.stats().buffered).toBe(20);

    stream.down = false;
    const kept = pushed - buffer.stats().dropped;
    await expect.poll(async () => (await stored()).length, { timeout: 20_000 }).toBe(kept);
    await sleep(500);
    expect(new Set(await stored()).size).toBe(kept); // each once
    await buffer.close(1_000);
  });

  it('takes the clicks a full click buffer would drop, and every click is stored once', async () => {
    const spill = await openSpill({ spillAfterMs: 1_000 });
    const buffer = new ClickBuffer({
      stream: spill,
      log,
      maxBatch: 5,
      lingerMs: 1,
      capacity: 20,
      overflow: spill.takeOverflow,
    });
    stream.lateByMs = 1_500; // the stream hangs: the batch on its way holds the buffer's queue
    for (let n = 0; n < 100; n++) buffer.push(click(n));
    expect(buffer.stats()).toMatchObject({ buffered: 20, dropped: 0 });
    await expect.poll(() => spill.stats().spilled, { timeout: 10_000 }).toBeGreaterThanOrEqual(80);
    stream.lateByMs = 0;
    await expect.poll(async () => (await stored()).length, { timeout: 20_000 }).toBe(100);
    await sleep(1_000); // a late publish has committed by now, too
    expect(new Set(await stored()).size).toBe(100);
    expect((await stored()).length).toBe(100);
    await buffer.close(1_000);
  });

  it("replays a previous run's spill at start, skipping a line a crash cut short", async () => {
    const first = await openSpill();
    stream.down = true;
    await first.publish(batchOf('x', 2), { id: 'x' });
    await first.publish(batchOf('y', 1), { id: 'y' });
    await first.close(); // the process ends with the stream still down
    const [file] = await spillFiles();
    await appendFile(path.join(dir, file as string), '{"id":"z","m":[["link-1","z-0"]'); // torn: no end
    // A file of an app that is gone (another PID), and one meant for another database.
    const gone = spawnSync('true').pid;
    await writeFile(
      path.join(dir, `${gone}-1-00000000.spill`),
      `${JSON.stringify({ clickSpill: 1, target: TARGET })}\n${JSON.stringify({ id: 'w', m: [['link-1', 'w-0']] })}\n`,
    );
    const foreign = `${gone}-1-00000001.spill`;
    await writeFile(path.join(dir, foreign), `${JSON.stringify({ clickSpill: 1, target: 'other-db' })}\n`);

    stream.down = false;
    const next = await openSpill();
    await expect.poll(() => next.stats().replayed, { timeout: 10_000 }).toBe(4);
    expect((await stored()).sort()).toEqual(['w-0', 'x-0', 'x-1', 'y-0']);
    await expect.poll(spillFiles).toEqual([foreign]);
  });

  it('writes each batch durably before it counts as spilled, in a private directory', async () => {
    const spill = await openSpill();
    stream.down = true;
    await spill.publish(batchOf('kept', 2), { id: 'kept' });
    // What a kill -9 right now would leave: the batch is in the file already.
    const [file] = await spillFiles();
    const lines = (await readFile(path.join(dir, file as string), 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { clickSpill: 1, target: TARGET },
      {
        id: 'kept',
        m: [
          ['link-1', 'kept-0'],
          ['link-1', 'kept-1'],
        ],
      },
    ]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
