import type { Click } from '@sniplink/contracts';
import type { ClickStream } from '@sniplink/platform';
import {
  clickStreamMissing,
  createTestClickStream,
  onClickStream,
  type TestClickStream,
} from '@sniplink/test-support/click-stream';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withReadModels } from '../read-models';
import { ClickAnalytics, type ClickAnalyticsDeps, type ClickAnalyticsOptions, flushWaitMs } from './consumer';
import { clickCounts, linkAnalytics, userClickTotal } from './queries';
import {
  analyticsSnapshot,
  asMessages,
  click,
  drained,
  expectedLinkTotals,
  labelSums,
  linkTotals,
  newLinkId,
  publishInBatches,
  readModelTotals,
  storedDrained,
  storedOffsets,
  until,
} from './testing';

const NOW = new Date('2026-11-20T15:30:00Z');

describe.skipIf(clickStreamMissing('consumer.test.ts'))('click analytics consumer', () => {
  let stack: TestStack;
  let subject: TestClickStream;
  let stream: ClickStream;
  const running: ClickAnalytics[] = [];

  beforeEach(async () => {
    stack = await createTestStack();
    subject = createTestClickStream(
      { pool: stack.database.pool, notifications: stack.notifications },
      { partitionCount: 4 },
    );
    stream = subject.stream;
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((analytics) => analytics.stop()));
    await subject.close();
    await stack.cleanup();
  });

  /** Messages the stream holds: each partition's end offset, summed (topics and databases start empty). */
  const storedMessages = async () =>
    [...(await stream.endOffsets()).values()].reduce((a, b) => a + Number(b), 0);

  const startAnalytics = (options: ClickAnalyticsOptions = {}, deps: Partial<ClickAnalyticsDeps> = {}) => {
    const analytics = new ClickAnalytics(
      {
        db: stack.database.db,
        stream,
        log: stack.log,
        progress: stack.notifications.channel('clicks_progress'),
        ...deps,
      },
      { groupId: subject.kafka?.groupId, ...options },
    );
    analytics.start();
    running.push(analytics);
    return analytics;
  };

  it('counts every breakdown, every day of the window and every link exactly', async () => {
    const a = newLinkId();
    const b = newLinkId();
    const never = newLinkId();
    const google = {
      device: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
      country: 'US',
      referrer: 'google.com',
    };
    const iphone = { device: 'mobile', browser: 'Safari', os: 'iOS', country: 'FR' } as const;
    const clicks: Click[] = [
      click(a, '2026-11-20T15:10:00Z', { ...google, device: 'desktop' }),
      click(a, '2026-11-20T15:50:00Z', { ...google, device: 'desktop' }),
      // Sent by the link's targeting rules 2 and 0.
      click(a, '2026-11-20T00:00:00Z', { ...iphone, referrer: 'direct', rule: 2 }),
      click(a, '2026-11-19T23:59:59.999Z', { ...iphone, referrer: 't.co', rule: 0 }),
      // The first day of a 30-day window, and the day before it (in the breakdowns only).
      click(a, '2026-10-22T12:00:00Z', {
        device: 'tablet',
        browser: 'Firefox',
        os: 'Android',
        country: 'DE',
        referrer: 'google.com',
      }),
      click(a, '2026-10-21T23:00:00Z', { browser: 'Edge', os: 'Windows', country: 'US', referrer: 'direct' }),
      // Stamped tomorrow (a skewed clock): in the breakdowns, not in the days up to today.
      click(a, '2026-11-21T01:00:00Z', { os: 'macOS', country: 'GB', referrer: 'news.ycombinator.com' }),
      // The same link spelled in capitals is the same link.
      click(a.toUpperCase(), '2026-11-18T08:00:00Z', { os: 'macOS', country: 'US', referrer: 'google.com' }),
      click(a, '2026-11-20T15:20:00Z', { bot: true, browser: 'Unknown', referrer: 'direct' }),
      click(b, '2026-11-20T09:00:00Z', { device: 'mobile', os: 'Android', country: 'IN' }),
      click(b, '2026-11-10T09:00:00Z', { device: 'mobile', os: 'Android', country: 'IN' }),
    ];
    await stream.publish([...asMessages(clicks), { key: a, value: { not: 'a click' } }]);
    const analytics = startAnalytics();
    await drained(analytics, stream);

    expect(await linkAnalytics(stack.database.db, a, { now: NOW })).toEqual({
      deviceBreakdown: { desktop: 5, mobile: 2, tablet: 1 },
      referrerBreakdown: { 'google.com': 4, direct: 2, 't.co': 1, 'news.ycombinator.com': 1 },
      countryBreakdown: { US: 4, FR: 2, DE: 1, GB: 1 },
      browserBreakdown: { Chrome: 4, Safari: 2, Firefox: 1, Edge: 1 },
      osBreakdown: { Windows: 3, iOS: 2, macOS: 2, Android: 1 },
      ruleBreakdown: { main: 6, '0': 1, '2': 1 },
      clicksByDay: daysFrom('2026-10-22', 30, {
        '2026-10-22': 1,
        '2026-11-18': 1,
        '2026-11-19': 1,
        '2026-11-20': 3,
      }),
    });
    const analyticsOfB = await linkAnalytics(stack.database.db, b, { now: NOW, days: 7 });
    expect(analyticsOfB).toEqual({
      deviceBreakdown: { mobile: 2 },
      referrerBreakdown: { direct: 2 },
      countryBreakdown: { IN: 2 },
      browserBreakdown: { Chrome: 2 },
      osBreakdown: { Android: 2 },
      ruleBreakdown: { main: 2 },
      clicksByDay: daysFrom('2026-11-14', 7, { '2026-11-20': 1 }),
    });
    // Most clicked first, ties by label.
    const { referrerBreakdown } = await linkAnalytics(stack.database.db, a, { now: NOW });
    expect(Object.keys(referrerBreakdown)).toEqual(['google.com', 'direct', 'news.ycombinator.com', 't.co']);

    const { rows } = await sql<{ clicks: string; bot_clicks: string; last_click_at: Date }>`
      SELECT clicks, bot_clicks, last_click_at FROM rm_link_clicks WHERE link_id = ${a}`.execute(
      stack.database.db,
    );
    expect(rows).toEqual([{ clicks: '8', bot_clicks: '1', last_click_at: new Date('2026-11-21T01:00:00Z') }]);
    expect(await clickCounts(stack.database.db, [a, b, never])).toEqual(
      new Map([
        [a, 8],
        [b, 2],
        [never, 0],
      ]),
    );
    expect(analytics.status()).toMatchObject({ state: 'active', counted: 11, duplicates: 0, rejected: 1 });
  });

  it('sums the human clicks of an owner over the links the owner has not deleted', async () => {
    const [kept, deleted, unclicked, othersLink] = [newLinkId(), newLinkId(), newLinkId(), newLinkId()];
    await insertLinks([
      { linkId: kept, ownerId: 'owner-1', deleted: false },
      { linkId: deleted, ownerId: 'owner-1', deleted: true },
      { linkId: unclicked, ownerId: 'owner-1', deleted: false },
      { linkId: othersLink, ownerId: 'owner-2', deleted: false },
    ]);
    const at = '2026-11-20T10:00:00Z';
    await stream.publish(
      asMessages([
        ...Array.from({ length: 3 }, () => click(kept, at)),
        click(kept, at, { bot: true }),
        ...Array.from({ length: 4 }, () => click(deleted, at)),
        click(othersLink, at),
      ]),
    );
    await drained(startAnalytics(), stream);
    expect(await userClickTotal(stack.database.db, 'owner-1')).toBe(3);
    expect(await userClickTotal(stack.database.db, 'owner-2')).toBe(1);
    expect(await userClickTotal(stack.database.db, 'nobody')).toBe(0);
  });

  it('counts clicks the log holds as JSON objects (published before the line format) with the lines', async () => {
    const link = newLinkId();
    const old = [click(link, '2026-11-20T09:00:00Z'), click(link, '2026-11-20T09:30:00Z', { country: 'FR' })];
    const asObjects = old.map(({ atMs, ...rest }) => ({
      key: link,
      value: { ...rest, at: new Date(atMs).toISOString() },
    }));
    await stream.publish(asObjects);
    await stream.publish(asMessages([click(link, '2026-11-20T10:00:00Z', { country: 'FR' })]));
    const analytics = startAnalytics();
    await drained(analytics, stream);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 3, botClicks: 0 }]]));
    const { countryBreakdown } = await linkAnalytics(stack.database.db, link, { now: NOW });
    expect(countryBreakdown).toEqual({ FR: 2, US: 1 });
    expect(analytics.status()).toMatchObject({ counted: 3, rejected: 0 });
  });

  it('counts a click that comes twice in a batch once', async () => {
    const link = newLinkId();
    const clicks = Array.from({ length: 30 }, (_, i) =>
      click(link, `2026-11-20T${String(i % 24).padStart(2, '0')}:00:00Z`, { bot: i % 10 === 0 }),
    );
    const first = clicks[0] as Click;
    await stream.publish(asMessages([...clicks, first, first]));
    const analytics = startAnalytics();
    await drained(analytics, stream);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 27, botClicks: 3 }]]));
    expect(analytics.status()).toMatchObject({ counted: 30, duplicates: 2 });
  });

  it("counts the platform's human clicks per quarter hour (UTC) and in all, for the admin Overview", async () => {
    const [a, b] = [newLinkId(), newLinkId()];
    const first = click(a, '2026-11-20T12:14:59.999Z');
    await stream.publish(
      asMessages([
        first,
        first,
        click(b, '2026-11-20T12:00:00Z'),
        click(a, '2026-11-20T12:15:00Z'),
        click(b, '2026-11-20T23:59:00Z'),
        click(b, '2026-11-20T12:20:00Z', { bot: true }),
      ]),
    );
    const analytics = startAnalytics();
    await drained(analytics, stream);
    await stream.publish(asMessages([click(a, '2026-11-20T12:29:00Z')]));
    await drained(analytics, stream);
    const { rows } =
      await sql`SELECT quarter, clicks FROM rm_platform_click_quarters ORDER BY quarter`.execute(
        stack.database.db,
      );
    expect(rows).toEqual([
      { quarter: new Date('2026-11-20T12:00:00Z'), clicks: '2' },
      { quarter: new Date('2026-11-20T12:15:00Z'), clicks: '2' },
      { quarter: new Date('2026-11-20T23:45:00Z'), clicks: '1' },
    ]);
    expect(await readModelTotals(stack.database.db)).toMatchObject({ humans: 5, platform: 5, quarters: 5 });
  });

  it('counts a publish re-sent with the same id once, whether the stream stores it once (PostgreSQL) or twice (Kafka)', async () => {
    const [link, other] = [newLinkId(), newLinkId()];
    const clicks = Array.from({ length: 20 }, (_, i) => click(i % 4 ? link : other, '2026-11-20T12:00:00Z'));
    await stream.publish(asMessages(clicks), { id: 'publish-1' });
    const analytics = startAnalytics();
    await drained(analytics, stream);
    const once = await analyticsSnapshot(stack.database.db);

    // The redirect retried a publish that had in fact been stored, under the same publish id: once
    // after the first copy was counted, once more before the consumer reads either.
    await stream.publish(asMessages(clicks), { id: 'publish-1' });
    await drained(analytics, stream);
    await stream.publish(asMessages([click(link, '2026-11-20T13:00:00Z')]), { id: 'publish-2' });
    await stream.publish(asMessages(clicks), { id: 'publish-1' });
    await stream.publish(asMessages([click(other, '2026-11-20T13:00:00Z')]), { id: 'publish-3' });
    await drained(analytics, stream);
    expect(await linkTotals(stack.database.db)).toEqual(
      new Map([
        [link, { clicks: 16, botClicks: 0 }],
        [other, { clicks: 6, botClicks: 0 }],
      ]),
    );
    const buckets = (await analyticsSnapshot(stack.database.db)).buckets as { hour: string }[];
    expect(buckets.filter((row) => row.hour === '2026-11-20T12:00:00.000Z')).toEqual(once.buckets);
    // Every copy stored is read: the later ones are what `duplicates` counts.
    const stored = await storedMessages();
    expect(stored).toBe(subject.kind === 'kafka' ? 62 : 22);
    expect(analytics.status()).toMatchObject({ counted: 22, duplicates: stored - 22 });
    expect(await readModelTotals(stack.database.db)).toMatchObject({ humans: 22, offsets: stored });
  });

  it('counts bots only in bot_clicks: no breakdown, no day, no last click', async () => {
    const link = newLinkId();
    await stream.publish(
      asMessages(Array.from({ length: 5 }, () => click(link, '2026-11-20T12:00:00Z', { bot: true }))),
    );
    await drained(startAnalytics(), stream);
    const { rows } = await sql`SELECT clicks, bot_clicks, last_click_at FROM rm_link_clicks`.execute(
      stack.database.db,
    );
    expect(rows).toEqual([{ clicks: '0', bot_clicks: '5', last_click_at: null }]);
    expect(await linkAnalytics(stack.database.db, link, { now: NOW, days: 2 })).toEqual({
      deviceBreakdown: {},
      referrerBreakdown: {},
      countryBreakdown: {},
      browserBreakdown: {},
      osBreakdown: {},
      ruleBreakdown: {},
      clicksByDay: [
        { date: '2026-11-19', clicks: 0 },
        { date: '2026-11-20', clicks: 0 },
      ],
    });
    expect(await clickCounts(stack.database.db, [link])).toEqual(new Map([[link, 0]]));
  });

  it('announces each committed flush on clicks_progress as "<partition> <next offset>" per partition', async () => {
    const heard: string[] = [];
    await stack.notifications.listen('clicks_progress', (payload) => heard.push(payload));
    await stream.publish(asMessages([click(newLinkId(), '2026-11-20T12:00:00Z')]));
    const analytics = startAnalytics();
    await drained(analytics, stream);
    const [partition, next] = [...analytics.status().offsets][0] ?? [];
    expect(next).toBe(1n);
    await until(() => Promise.resolve(heard.includes(`${partition} 1`)), 5_000);
  });

  it('stopped mid-way and restarted, counts every click exactly once', async () => {
    const links = Array.from({ length: 10 }, newLinkId);
    const clicks = Array.from({ length: 2_000 }, (_, i) =>
      click(links[i % links.length] as string, '2026-11-20T12:00:00Z', { bot: i % 7 === 0 }),
    );
    await publishInBatches(stream, clicks, 50);
    const first = startAnalytics({ maxBatchSize: 20, flushAfterClicks: 100 });
    await until(() => Promise.resolve(first.status().counted >= 400), 20_000);
    await first.stop();
    running.splice(running.indexOf(first), 1);

    // Whatever the moment of the stop, offsets and counters describe the same messages.
    const partial = await readModelTotals(stack.database.db);
    expect(partial.offsets).toBeGreaterThanOrEqual(400);
    expect(partial.offsets).toBeLessThan(2_000);
    expect(partial).toEqual({
      humans: partial.hourly,
      bots: partial.offsets - partial.hourly,
      hourly: partial.hourly,
      platform: partial.hourly,
      quarters: partial.hourly,
      offsets: partial.offsets,
    });

    const second = startAnalytics({ maxBatchSize: 20, flushAfterClicks: 100 });
    await drained(second, stream);
    expect(second.status().offsets).toEqual(await storedOffsets(stack.database.db));
    expect(await linkTotals(stack.database.db)).toEqual(expectedLinkTotals(clicks));
    expect(second.status().duplicates).toBe(0);
  });

  it('reads again from the stored offsets after a failed flush: every click counts once', async () => {
    // A later flush fails at its commit (the first writes at most two offsets); what was read while it
    // ran is dropped with it.
    await failCommitOf('click_consumer_offsets', 3);
    const links = Array.from({ length: 8 }, newLinkId);
    const clicks = Array.from({ length: 400 }, (_, i) =>
      click(links[i % links.length] as string, '2026-11-20T12:00:00Z', { bot: i % 13 === 0 }),
    );
    await publishInBatches(stream, clicks, 25);
    const errors: string[] = [];
    const log = Object.assign(Object.create(stack.log), {
      error: (fields: { err?: unknown }) => errors.push(String(fields.err)),
    });
    const analytics = startAnalytics({ maxBatchSize: 20, flushAfterClicks: 40, flushAfterMs: 100 }, { log });
    await drained(analytics, stream);
    expect(errors.join()).toContain('injected commit failure');
    expect(await linkTotals(stack.database.db)).toEqual(expectedLinkTotals(clicks));
    expect(analytics.status()).toMatchObject({ state: 'active', counted: 400, duplicates: 0 });
    expect(analytics.status().offsets).toEqual(await storedOffsets(stack.database.db));
    const totals = await readModelTotals(stack.database.db);
    expect(totals).toMatchObject({
      offsets: 400,
      hourly: totals.humans,
      platform: totals.humans,
      quarters: totals.humans,
    });
    expect(totals.humans + totals.bots).toBe(400);
  });

  it('flushes once enough clicks wait, and writes the rest on stop()', async () => {
    const link = newLinkId();
    await publishInBatches(
      stream,
      Array.from({ length: 250 }, () => click(link, '2026-11-20T12:00:00Z')),
      50,
    );
    const analytics = startAnalytics({
      maxBatchSize: 50,
      flushAfterClicks: 100,
      flushAfterMs: 60_000,
      flushWhenQuietMs: 60_000,
    });
    await until(() => Promise.resolve(analytics.status().counted >= 200), 10_000);
    // Two flushes of two batches each; the fifth batch waits for a hundred clicks or a minute.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(analytics.status().counted).toBe(200);
    expect(await readModelTotals(stack.database.db)).toMatchObject({ humans: 200, offsets: 200 });

    await analytics.stop();
    expect(analytics.status()).toMatchObject({ state: 'stopped', counted: 250 });
    expect(await readModelTotals(stack.database.db)).toMatchObject({ humans: 250, offsets: 250 });
  });

  it('flushes the clicks waiting once the oldest has waited flushAfterMs, not before', async () => {
    const link = newLinkId();
    // 1.5 s: far longer than the 300 ms the test waits before looking, even on a loaded machine.
    const analytics = startAnalytics({ flushAfterMs: 1_500, flushWhenQuietMs: 60_000 });
    await until(() => Promise.resolve(analytics.status().state === 'active'), 5_000);
    await stream.publish(asMessages([click(link, '2026-11-20T12:00:00Z')]));
    const published = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await stream.publish(asMessages([click(link, '2026-11-20T12:00:00Z')]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await linkTotals(stack.database.db)).toEqual(new Map());
    await drained(analytics, stream);
    expect(performance.now() - published).toBeGreaterThanOrEqual(1_500);
    // One flush: the click published 200 ms after the first waited with it.
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 2, botClicks: 0 }]]));
  });

  it('waits longer after a dear flush: the wait is at least its duration over flushCostShare, at most longestFlushAfterMs', async () => {
    const link = newLinkId();
    // Any flush takes over a millisecond; over a share of 1/100,000 that is over 100 s: capped at 1.5 s.
    const analytics = startAnalytics({
      flushAfterMs: 100,
      flushCostShare: 0.000_01,
      longestFlushAfterMs: 1_500,
      flushWhenQuietMs: 60_000,
    });
    await until(() => Promise.resolve(analytics.status().state === 'active'), 5_000);
    await stream.publish(asMessages([click(link, '2026-11-20T12:00:00Z')]));
    // No flush before this one: the first waits flushAfterMs.
    await until(() => Promise.resolve(analytics.status().counted === 1), 2_000);
    await stream.publish(asMessages([click(link, '2026-11-20T12:00:00Z')]));
    const published = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(analytics.status().counted).toBe(1);
    await until(() => Promise.resolve(analytics.status().counted === 2), 5_000);
    expect(performance.now() - published).toBeGreaterThanOrEqual(1_400);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 2, botClicks: 0 }]]));
  });

  it('flushes once the tally holds flushAfterSums sums (links, hours, label sets), however few the clicks', async () => {
    const links = Array.from({ length: 30 }, newLinkId);
    const analytics = startAnalytics({
      maxBatchSize: 10,
      flushAfterSums: 30,
      flushAfterMs: 60_000,
      flushWhenQuietMs: 60_000,
    });
    await until(() => Promise.resolve(analytics.status().state === 'active'), 5_000);
    // Ten links, one hour and one label set each: 30 sums from ten clicks.
    await stream.publish(asMessages(links.slice(0, 10).map((link) => click(link, '2026-11-20T12:00:00Z'))));
    await until(() => Promise.resolve(analytics.status().counted === 10), 5_000);
    // Ten clicks of one link: three sums; they wait for the minute.
    await stream.publish(
      asMessages(links.slice(0, 10).map(() => click(links[0] as string, '2026-11-20T12:00:00Z'))),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(analytics.status().counted).toBe(10);
  });

  it('sums while batches keep coming, and writes them once the stream has been quiet for flushWhenQuietMs', async () => {
    const link = newLinkId();
    // The quiet time is ten times the gap between batches, so a busy machine's stalls do not read as quiet.
    const analytics = startAnalytics({ flushAfterMs: 60_000, flushWhenQuietMs: 1_000 });
    await until(() => Promise.resolve(analytics.status().state === 'active'), 5_000);
    for (let i = 0; i < 10; i++) {
      await stream.publish(asMessages([click(link, '2026-11-20T12:00:00Z')]));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A second of clicks 100 ms apart: never quiet for a second, so nothing is written yet.
    expect(await linkTotals(stack.database.db)).toEqual(new Map());
    const stopped = performance.now();
    await drained(analytics, stream);
    // Written once the stream is quiet, long before flushAfterMs.
    expect(performance.now() - stopped).toBeLessThan(5_000);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 10, botClicks: 0 }]]));
  });

  const standbyTest = 'hands the group over to a standby, which goes on from the stored offsets';
  it.runIf(
    onClickStream(
      'postgres',
      standbyTest,
      'with Kafka a second member is not a standby, it is given partitions: the next test',
    ),
  )(standbyTest, async () => {
    const link = newLinkId();
    const before = Array.from({ length: 40 }, () => click(link, '2026-11-20T12:00:00Z'));
    await stream.publish(asMessages(before));
    const active = startAnalytics();
    await drained(active, stream);
    const standby = startAnalytics();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(standby.status().state).toBe('standby');

    await active.stop();
    const after = Array.from({ length: 25 }, () => click(link, '2026-11-20T13:00:00Z'));
    await stream.publish(asMessages(after));
    await drained(standby, stream);
    expect(standby.status()).toMatchObject({ state: 'active', counted: 25, duplicates: 0 });
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 65, botClicks: 0 }]]));
    expect(await labelSums(stack.database.db)).toHaveLength(5);
  });

  const sharedGroupTest =
    'with Kafka, members count different partitions at once, and hand them over when one stops: every click once';
  it.runIf(
    onClickStream(
      'kafka',
      sharedGroupTest,
      'on the PostgreSQL click stream one member reads: the previous test',
    ),
  )(sharedGroupTest, { timeout: 60_000 }, async () => {
    const links = Array.from({ length: 24 }, newLinkId);
    const clicks = Array.from({ length: 1_200 }, (_, i) =>
      click(links[i % links.length] as string, '2026-11-20T12:00:00Z', { bot: i % 13 === 0 }),
    );
    const publish = async (from: number, to: number) => {
      for (let i = from; i < to; i += 50) {
        const batch = asMessages(clicks.slice(i, i + 50));
        await stream.publish(batch, { id: `publish-${i}` });
        // Every fifth publish re-sent, as after an answer that was lost.
        if (i % 250 === 0) await stream.publish(batch, { id: `publish-${i}` });
      }
    };
    const options = { maxBatchSize: 20, flushAfterClicks: 60, flushAfterMs: 200 };
    const first = startAnalytics(options);
    await publish(0, 300);
    await until(() => Promise.resolve(first.status().counted > 0), 15_000);
    const second = startAnalytics(options);
    await until(() => Promise.resolve(second.status().state === 'active'), 15_000);
    await publish(300, 800);
    // Both count, each its own partitions.
    await until(() => Promise.resolve(first.status().counted > 300 && second.status().counted > 0), 15_000);

    await first.stop();
    await publish(800, 1_200);
    await storedDrained(stack.database.db, stream, 30_000);
    await second.stop();
    expect(await linkTotals(stack.database.db)).toEqual(expectedLinkTotals(clicks));
    const counted = first.status().counted + second.status().counted;
    const duplicates = first.status().duplicates + second.status().duplicates;
    expect(counted).toBe(1_200);
    expect(counted + duplicates).toBeGreaterThanOrEqual(await storedMessages());
    const totals = await readModelTotals(stack.database.db);
    expect(totals).toMatchObject({ offsets: await storedMessages(), platform: totals.humans });
    expect(totals.humans + totals.bots).toBe(1_200);
  });

  it('deletes from the click log only clicks counted already and older than the retention', async () => {
    const link = newLinkId();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await stream.publish(asMessages(Array.from({ length: 20 }, () => click(link, hourAgo))));
    const first = startAnalytics({ clickLogRetentionMs: 86_400_000 });
    await drained(first, stream);
    await first.stop();
    // Published while nobody counts: old enough later on, but not counted.
    await stream.publish(asMessages(Array.from({ length: 10 }, () => click(link, hourAgo))));
    const messagesInLog = () => subject.messagesInLog();
    expect(await first.pruneClickLog()).toBe(0); // counted, but published just now
    expect(await messagesInLog()).toBe(30);
    const twoDaysOn = new Date(Date.now() + 2 * 86_400_000);
    expect(await first.pruneClickLog(twoDaysOn)).toBe(20);
    expect(await messagesInLog()).toBe(10);
    const keeping = new ClickAnalytics({ db: stack.database.db, stream, log: stack.log });
    expect(await keeping.pruneClickLog(twoDaysOn)).toBe(0); // no retention: keeps every click

    const second = startAnalytics({ clickLogRetentionMs: 86_400_000 });
    await drained(second, stream);
    expect(await linkTotals(stack.database.db)).toEqual(new Map([[link, { clicks: 30, botClicks: 0 }]]));
  });

  it('forgets the publish parts counted over a day ago', async () => {
    const db = stack.database.db;
    await sql`INSERT INTO click_publishes_counted (partition, publish_id, end_offset, counted_at)
      VALUES (0, 'old', 90, now() - interval '25 hours'), (1, 'recent', 50, now() - interval '23 hours')`.execute(
      db,
    );
    const analytics = new ClickAnalytics({ db, stream, log: stack.log });
    expect(await analytics.forgetPublishParts()).toBe(1);
    const { rows } = await sql<{
      publish_id: string;
    }>`SELECT publish_id FROM click_publishes_counted`.execute(db);
    expect(rows).toEqual([{ publish_id: 'recent' }]);
  });

  it('rolls finished hours up into the all-time labels: breakdowns stay the same, late clicks count once', async () => {
    let now = new Date('2026-11-20T15:30:00Z');
    const analytics = startAnalytics({}, { clock: () => now });
    const link = newLinkId();
    const early = [
      click(link, '2026-11-20T10:15:00Z', { country: 'DE' }),
      click(link, '2026-11-20T13:59:59Z', { device: 'mobile' }),
      click(link, '2026-11-20T14:00:00Z', { referrer: 't.co' }),
      click(link, '2026-11-20T15:10:00Z', { bot: true }),
    ];
    await stream.publish(asMessages(early));
    await drained(analytics, stream);
    const before = await linkAnalytics(stack.database.db, link, { now, days: 2 });

    // Hours before 14:00 (the one before the current hour) move into rm_click_labels, once: two members
    // rolling up at the same moment (Kafka runs several at once) add them once between them.
    const other = new ClickAnalytics({ db: stack.database.db, stream, log: stack.log, clock: () => now });
    const added = await Promise.all([analytics.rollUpLabels(), other.rollUpLabels()]);
    expect(added.filter((rows) => rows > 0)).toHaveLength(1);
    const { rows } = await sql<{ through: Date }>`
      SELECT labels_through AS through FROM rm_click_rollup`.execute(stack.database.db);
    expect(rows).toEqual([{ through: new Date('2026-11-20T14:00:00Z') }]);
    expect(await analytics.rollUpLabels()).toBe(0);
    expect(await linkAnalytics(stack.database.db, link, { now, days: 2 })).toEqual(before);

    // A click of a rolled-up hour, consumed now, goes to the labels directly; a twin of it counts nothing.
    now = new Date('2026-11-20T16:05:00Z');
    const late = click(link, '2026-11-20T09:00:00Z', { country: 'JP' });
    await stream.publish(asMessages([late, click(link, '2026-11-20T16:01:00Z'), late]));
    await drained(analytics, stream);
    await analytics.rollUpLabels();
    const after = await linkAnalytics(stack.database.db, link, { now, days: 2 });
    expect(after.countryBreakdown).toEqual({ US: 3, DE: 1, JP: 1 });
    expect(after.deviceBreakdown).toEqual({ desktop: 4, mobile: 1 });
    expect(after.clicksByDay).toEqual([
      { date: '2026-11-19', clicks: 0 },
      { date: '2026-11-20', clicks: 5 },
    ]);
    // Each dimension's all-time counts add up to the link's clicks, and so do its hourly buckets.
    const sums = await labelSums(stack.database.db);
    expect(sums.map(({ dimension, clicks }) => [dimension, clicks]).sort()).toEqual(
      ['browser', 'country', 'device', 'os', 'referrer'].map((dimension) => [dimension, 5]),
    );
    const buckets = await sql<{ dimension: string; clicks: string }>`
      SELECT dimension, sum(clicks)::text AS clicks FROM rm_click_buckets GROUP BY dimension`.execute(
      stack.database.db,
    );
    expect(buckets.rows).toHaveLength(6);
    for (const row of buckets.rows) expect(row.clicks).toBe('5');
    expect(analytics.status()).toMatchObject({ counted: 6, duplicates: 1 });
  });

  it('handles partitions in parallel and still counts every click once', async () => {
    const links = Array.from({ length: 40 }, newLinkId);
    const clicks = Array.from({ length: 3_000 }, (_, i) =>
      click(links[i % links.length] as string, '2026-11-20T12:00:00Z', { bot: i % 11 === 0 }),
    );
    for (let i = 0; i < clicks.length; i += 250) {
      await stream.publish(asMessages(clicks.slice(i, i + 250)), { id: `publish-${i}` });
    }
    // A re-sent publish, as after a publish whose success the redirect did not hear: stored once
    // (PostgreSQL) or twice (Kafka), counted once.
    await stream.publish(asMessages(clicks.slice(1_000, 1_250)), { id: 'publish-1000' });
    const analytics = startAnalytics({
      maxBatchSize: 100,
      partitionsConsumedConcurrently: 4,
      flushAfterClicks: 500,
    });
    await drained(analytics, stream);
    expect(await linkTotals(stack.database.db)).toEqual(expectedLinkTotals(clicks));
    const stored = await storedMessages();
    expect(stored).toBe(subject.kind === 'kafka' ? 3_250 : 3_000);
    expect(analytics.status()).toMatchObject({ counted: 3_000, duplicates: stored - 3_000 });
    expect(await readModelTotals(stack.database.db)).toMatchObject({ offsets: stored });
  });

  async function insertLinks(links: { linkId: string; ownerId: string; deleted: boolean }[]) {
    const at = new Date('2026-11-01T00:00:00Z');
    await withReadModels(stack.database.db)
      .insertInto('rm_links')
      .values(
        links.map(({ linkId, ownerId, deleted }, i) => ({
          link_id: linkId,
          owner_id: ownerId,
          code: `code${i}`,
          code_lower: `code${i}`,
          original_url: 'https://example.com/',
          title: null,
          origin: 'test',
          created_at: at,
          updated_at: at,
          deleted,
          last_revision: '0',
        })),
      )
      .execute();
  }

  /** A deferred trigger that fails the transaction writing the `nth` row to `table`, at its COMMIT. */
  async function failCommitOf(table: string, nth = 1) {
    const pool = stack.database.pool;
    await pool.query('CREATE SEQUENCE test_commit_failures');
    // A sequence, not a counter row: nextval survives the rollback the exception causes.
    await pool.query(`
      CREATE FUNCTION test_fail_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('test_commit_failures') = ${nth} THEN RAISE EXCEPTION 'injected commit failure'; END IF;
        RETURN NULL;
      END $$`);
    await pool.query(`
      CREATE CONSTRAINT TRIGGER test_fail_commit AFTER INSERT OR UPDATE ON ${table}
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_fail_commit()`);
  }
});

/** `count` days from `first`, zero unless given. */
function daysFrom(first: string, count: number, clicks: Record<string, number>) {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return { date, clicks: clicks[date] ?? 0 };
  });
}

describe('flushWaitMs', () => {
  const pacing = { flushAfterMs: 5_000, flushCostShare: 0.05, longestFlushAfterMs: 20_000 };

  it('waits flushAfterMs while flushes are cheap', () => {
    expect(flushWaitMs(0, pacing)).toBe(5_000);
    expect(flushWaitMs(250, pacing)).toBe(5_000);
  });

  it('waits twenty times a dear flush at a share of 5 %, at most longestFlushAfterMs', () => {
    expect(flushWaitMs(600, pacing)).toBe(12_000);
    expect(flushWaitMs(1_200, pacing)).toBe(20_000);
  });

  it('never waits less than flushAfterMs, even when it is above longestFlushAfterMs', () => {
    expect(flushWaitMs(0, { ...pacing, flushAfterMs: 60_000 })).toBe(60_000);
  });
});
