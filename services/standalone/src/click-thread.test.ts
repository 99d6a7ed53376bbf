import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { PostgresClickStream } from '@sniplink/platform';
import { ClickBuffer } from '@sniplink/redirect';
import { DIST_DIR, ensureServerBuilt } from '@sniplink/test-support/app-process';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { until } from '@sniplink/test-support/until';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  asMessages,
  click,
  expectedLinkTotals,
  linkTotals,
  newLinkId,
  publishInBatches,
  readModelTotals,
  storedDrained,
} from '../../../projections/src/analytics/testing';
import { ClickThread } from './click-thread';

const PARTITIONS = 4;
// The thread runs the bundle's worker, as `npm start` does (built from the current sources).
ensureServerBuilt();
const CLICK_WORKER = pathToFileURL(path.join(DIST_DIR, 'click-worker.mjs'));

describe('the click thread: publishing and click analytics on a worker thread', () => {
  let stack: TestStack;
  let stream: PostgresClickStream;
  let thread: ClickThread;

  beforeEach(async () => {
    stack = await createTestStack();
    stream = new PostgresClickStream({
      pool: stack.database.pool,
      notifications: stack.notifications,
      partitionCount: PARTITIONS,
    });
    thread = new ClickThread(threadOptions());
  });
  const threadOptions = () => ({
    script: CLICK_WORKER,
    workerData: {
      connectionString: stack.database.connectionString,
      clickStream: { kind: 'postgres' as const, partitions: PARTITIONS },
      logLevel: 'silent' as const,
      consume: true,
      clickLogRetentionMs: 0,
    },
    log: stack.log,
  });
  afterEach(async () => {
    await thread.stop();
    await stack.cleanup();
  });

  it('counts the clicks published, and reports its status to the main thread', async () => {
    const links = [newLinkId(), newLinkId(), newLinkId()];
    const clicks = Array.from({ length: 300 }, (_, i) =>
      click(links[i % 3] as string, '2026-11-20T12:00:00Z', { bot: i % 10 === 0 }),
    );
    thread.start();
    await publishInBatches(stream, clicks, 50);
    await storedDrained(stack.database.db, stream);
    expect(await linkTotals(stack.database.db)).toEqual(expectedLinkTotals(clicks));
    await until(
      () => Promise.resolve(thread.status()),
      (status) => status.counted === 300,
    );
    expect(thread.status()).toMatchObject({ state: 'active', counted: 300, rejected: 0 });
  });

  it('starts a thread that died again, which goes on from the stored offsets: nothing lost or doubled', async () => {
    const link = newLinkId();
    const first = Array.from({ length: 200 }, () => click(link, '2026-11-20T12:00:00Z'));
    thread.start();
    await publishInBatches(stream, first, 50);
    await storedDrained(stack.database.db, stream);

    // The thread ends as if it had crashed (terminate() runs no more of its code).
    const worker = (thread as unknown as { worker: Worker }).worker;
    await worker.terminate();
    const second = Array.from({ length: 150 }, () => click(link, '2026-11-20T13:00:00Z'));
    await stream.publish(asMessages(second));
    await storedDrained(stack.database.db, stream);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 350, botClicks: 0 }]]));
    expect(await readModelTotals(stack.database.db)).toMatchObject({ humans: 350, hourly: 350 });
  });

  it("publishes the click buffer's batches, also across a thread that ends with batches on their way: every click once", async () => {
    thread.start();
    const buffer = new ClickBuffer({ stream: thread, log: stack.log, maxBatch: 50, lingerMs: 5 });
    const link = newLinkId();
    const clicks = Array.from({ length: 1_000 }, (_, i) =>
      click(link, '2026-11-20T12:00:00Z', { bot: i % 4 === 0 }),
    );
    for (const each of clicks.slice(0, 500)) buffer.push(each);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Ended as if it had crashed: publishes it was given are lost or stored, unanswered.
    await (thread as unknown as { worker: Worker }).worker.terminate();
    for (const each of clicks.slice(500)) buffer.push(each);
    expect(await buffer.flush(20_000)).toBe(true);
    expect(buffer.stats()).toMatchObject({ buffered: 0, published: 1_000, dropped: 0 });
    expect(buffer.stats().failedPublishes).toBeGreaterThan(0); // while the thread was down
    await buffer.close();
    await storedDrained(stack.database.db, stream);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 750, botClicks: 250 }]]));
  });

  it('stops mid-stream and a new thread counts the rest: every click once', async () => {
    const link = newLinkId();
    thread.start();
    await until(
      () => Promise.resolve(thread.status().state),
      (state) => state === 'active',
      10_000,
    );
    const clicks = Array.from({ length: 400 }, () => click(link, '2026-11-20T12:00:00Z'));
    const publishing = publishInBatches(stream, clicks, 20);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await thread.stop();
    expect(thread.status().state).toBe('stopped');
    await publishing;
    thread = new ClickThread(threadOptions());
    thread.start();
    await storedDrained(stack.database.db, stream);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 400, botClicks: 0 }]]));
  });
});
