import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Link } from '@sniplink/contracts';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { freePort } from '@sniplink/test-support/app-process';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CAPACITY = 150;

let api: TestApi;
let owner: HttpClient;
let link: Link;
/** An app (its click buffer bounded by CAPACITY) with a user and a link; the spill off unless `env` says. */
async function startApp(env: Record<string, string> = { CLICK_SPILL_MAX_MB: '0' }): Promise<void> {
  api = await startTestApi({ CLICK_BUFFER_CAPACITY: String(CAPACITY), ...env });
  owner = api.client();
  await owner.post('/api/auth/register', {
    email: `outage.${Date.now()}@example.com`,
    password: 'correct horse',
  });
  link = (await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/up', title: null })).body;
}

/** `count` redirects, 8 at a time; every answer's status and the slowest answer's time. */
async function visits(count: number): Promise<{ statuses: Set<number>; slowestMs: number }> {
  const statuses = new Set<number>();
  let slowestMs = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < count) {
        const started = performance.now();
        const response = await fetch(`${api.baseUrl}/s/${link.shortCode}`, {
          redirect: 'manual',
          headers: { 'user-agent': BROWSER },
        });
        slowestMs = Math.max(slowestMs, performance.now() - started);
        statuses.add(response.status);
      }
    }),
  );
  return { statuses, slowestMs };
}

const clickCount = async () =>
  (await owner.get<Link[]>('/api/links')).body.find((l) => l.id === link.id)?.clickCount ?? -1;

const readyz = async () =>
  (await (await fetch(`${api.baseUrl}/readyz`)).json()) as {
    checks: {
      clickBuffer: { ok: boolean; buffered: number; dropped: number; failedPublishes: number };
      clickSpill?: { ok: boolean; files: number; spilled: number; replayed: number };
      clickStream: { ok: boolean; error?: string };
    };
  };

/** Every insert into the click log fails, as it would with the adapter's server gone; undone by `refuseClicksNoMore`. */
const refuseClicks = () =>
  api.database.pool.query(`
    CREATE FUNCTION refuse_clicks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'click stream unavailable (test)'; END $$;
    CREATE TRIGGER refuse_clicks BEFORE INSERT ON cs_chunks EXECUTE FUNCTION refuse_clicks();`);
const refuseClicksNoMore = () =>
  api.database.pool.query(
    'DROP TRIGGER IF EXISTS refuse_clicks ON cs_chunks; DROP FUNCTION IF EXISTS refuse_clicks()',
  );

/**
 * One click counted, then 2 × CAPACITY redirects, all answered, while the click log refuses inserts;
 * `during` checks the app in the outage, which ends afterwards (also when a check failed, so the next
 * test does not inherit it).
 */
async function outageAfterOneClick(during: () => Promise<void>): Promise<void> {
  await visits(1);
  expect(await until(clickCount, (n) => n === 1, 5_000)).toBe(1);
  await refuseClicks();
  try {
    const answered = await visits(2 * CAPACITY);
    expect([...answered.statuses]).toEqual([302]);
    await during();
  } finally {
    await refuseClicksNoMore();
  }
}

describe('the click stream down or slow, without a spill (CLICK_SPILL_MAX_MB=0)', () => {
  beforeAll(() => startApp());
  afterAll(() => api?.close());

  it('keeps redirecting while publishing fails, holds at most CLICK_BUFFER_CAPACITY clicks, delivers them once back', async () => {
    await outageAfterOneClick(async () => {
      expect((await readyz()).checks.clickBuffer).toMatchObject({
        ok: false,
        buffered: CAPACITY,
        dropped: CAPACITY,
      });
      // The 300 redirects can all be answered before the first click's 100 ms linger ends, so the first
      // (failing) publish may still be ahead: wait for it rather than assume it.
      const failing = await until(readyz, (r) => r.checks.clickBuffer.failedPublishes > 0, 5_000);
      expect(failing.checks.clickBuffer.failedPublishes).toBeGreaterThan(0);
      expect(await clickCount()).toBe(1);
    });

    // The held clicks arrive (retries back off up to 5 s), each once; the dropped ones never do.
    expect(await until(clickCount, (n) => n >= 1 + CAPACITY, 20_000)).toBe(1 + CAPACITY);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await clickCount()).toBe(1 + CAPACITY);
    expect((await readyz()).checks.clickBuffer).toMatchObject({ ok: true, buffered: 0, dropped: CAPACITY });
  }, 60_000);

  it('answers at once while publishing hangs, and counts every click when the stream moves again', async () => {
    const before = await clickCount();
    // Slow: a transaction holds the partitions' rows, so each publish waits on its lock.
    const blocker = await api.database.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE cs_partitions IN EXCLUSIVE MODE');
      const during = await visits(100);
      expect([...during.statuses]).toEqual([302]);
      expect(during.slowestMs).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await clickCount()).toBe(before);
      await blocker.query('COMMIT');
    } finally {
      blocker.release();
    }
    expect(await until(clickCount, (n) => n >= before + 100, 10_000)).toBe(before + 100);
  }, 60_000);
});

describe('the click stream down, with the spill (the default)', () => {
  beforeAll(() => startApp({}));
  afterAll(() => api?.close());

  it('writes what the buffer cannot publish to DATA_DIR/click-spill, drops nothing, and counts every click once back', async () => {
    await outageAfterOneClick(async () => {
      const spilling = await until(
        readyz,
        (r) => (r.checks.clickSpill?.spilled ?? 0) >= 2 * CAPACITY,
        10_000,
      );
      expect(spilling.checks.clickSpill, JSON.stringify(spilling)).toMatchObject({ spilled: 2 * CAPACITY });
      expect(spilling.checks.clickBuffer).toMatchObject({ ok: true, buffered: 0, dropped: 0 });
      expect(await clickCount()).toBe(1);
    });
    expect(await until(clickCount, (n) => n >= 1 + 2 * CAPACITY, 20_000)).toBe(1 + 2 * CAPACITY);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await clickCount()).toBe(1 + 2 * CAPACITY);
    expect((await readyz()).checks.clickSpill).toMatchObject({ ok: true, files: 0, replayed: 2 * CAPACITY });
  }, 60_000);
});

describe('a DATA_DIR the spill cannot use', () => {
  it('still starts and redirects, with the clicks in the buffer only', async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'sniplink-not-a-dir-')), 'file');
    await writeFile(file, '');
    await startApp({ DATA_DIR: path.join(file, 'data') }); // a path under a file: not even root can create it
    try {
      await visits(3);
      expect(await until(clickCount, (n) => n === 3, 5_000)).toBe(3);
      const { checks } = await readyz();
      expect(checks.clickSpill).toBeUndefined();
      expect(checks.clickBuffer).toMatchObject({ ok: true, dropped: 0 });
    } finally {
      await api.close();
      await rm(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe('CLICK_STREAM=kafka with no broker at KAFKA_BROKERS', () => {
  beforeAll(async () =>
    startApp({
      CLICK_STREAM: 'kafka',
      KAFKA_BROKERS: `127.0.0.1:${await freePort()}`,
      CLICK_SPILL_MAX_MB: '0',
    }),
  );
  afterAll(() => api?.close());

  it('starts, redirects at once, holds the clicks in the buffer, and /readyz says the stream is down', async () => {
    const during = await visits(20);
    expect([...during.statuses]).toEqual([302]);
    expect(during.slowestMs).toBeLessThan(1_000);
    // Each publish fails within the stream's bound (the broker refuses), and is kept for a retry.
    const failing = await until(readyz, (r) => r.checks.clickBuffer.failedPublishes > 0, 15_000);
    expect(failing.checks.clickBuffer).toMatchObject({ buffered: 20, dropped: 0 });
    const started = performance.now();
    const { checks } = await readyz();
    expect(performance.now() - started).toBeLessThan(5_000); // its checks are bounded at 2 s: not hung on the broker
    expect(checks.clickStream.ok).toBe(false);
  }, 60_000);
});
