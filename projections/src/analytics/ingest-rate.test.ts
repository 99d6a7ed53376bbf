import type { Click } from '@sniplink/contracts';
import {
  clickStreamMissing,
  createTestClickStream,
  type TestClickStream,
} from '@sniplink/test-support/click-stream';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClickAnalytics } from './consumer';
import {
  click,
  drained,
  expectedLinkTotals,
  labelSums,
  linkTotals,
  newLinkId,
  publishInBatches,
  readModelTotals,
} from './testing';

const CLICKS = 20_000;
const LINKS = 50;

describe.skipIf(clickStreamMissing('ingest-rate.test.ts'))('click analytics ingest', () => {
  let stack: TestStack;
  let subject: TestClickStream;
  beforeEach(async () => {
    stack = await createTestStack();
    // The app's default partition count (CLICK_PARTITIONS).
    subject = createTestClickStream(
      { pool: stack.database.pool, notifications: stack.notifications },
      { partitionCount: 8 },
    );
  });
  afterEach(async () => {
    await subject.close();
    await stack.cleanup();
  });

  // Clicks a week apart each open new hourly rows (about 5.5 per click): the worst case for the buckets.
  // Live traffic lands in the current hour, where a batch adds to a few rows per link and label.
  it.each([
    { shape: 'spread over a week', spanSeconds: 7 * 86_400 },
    { shape: 'within one hour', spanSeconds: 3_600 },
  ])(
    `counts all of ${CLICKS} clicks across ${LINKS} links $shape, and prints the rate`,
    { timeout: 120_000 },
    async ({ shape, spanSeconds }) => {
      const { stream } = subject;
      const clicks = sampleClicks(spanSeconds);
      await publishInBatches(stream, clicks, 500);

      const analytics = new ClickAnalytics(
        { db: stack.database.db, stream, log: stack.log },
        { groupId: subject.kafka?.groupId },
      );
      const started = performance.now();
      analytics.start();
      await drained(analytics, stream, 100_000);
      const seconds = (performance.now() - started) / 1_000;
      await analytics.stop();
      const buckets = await sql<{ n: number }>`SELECT count(*)::int AS n FROM rm_click_buckets`.execute(
        stack.database.db,
      );
      console.log(
        `[click analytics] ${CLICKS} clicks over ${LINKS} links ${shape} (a backlog on the ${subject.kind} stream, 8 partitions, default batches, ` +
          `${buckets.rows[0]?.n} hourly rows): ${seconds.toFixed(2)} s, ` +
          `${Math.round(CLICKS / seconds)} clicks/s`,
      );

      const expected = expectedLinkTotals(clicks);
      expect(await linkTotals(stack.database.db)).toEqual(expected);
      const humans = [...expected.values()].reduce((sum, link) => sum + link.clicks, 0);
      expect(await readModelTotals(stack.database.db)).toEqual({
        humans,
        bots: CLICKS - humans,
        hourly: humans,
        platform: humans,
        quarters: humans,
        offsets: CLICKS,
      });
      const sums = await labelSums(stack.database.db);
      expect(sums).toHaveLength(LINKS * 5);
      for (const { linkId, clicks: sum } of sums) expect(sum).toBe(expected.get(linkId)?.clicks);
      const { rows } = await sql<{ label: string; clicks: string }>`
      SELECT label, sum(clicks)::text AS clicks FROM rm_click_buckets WHERE dimension = 'device'
      GROUP BY label ORDER BY label`.execute(stack.database.db);
      expect(rows).toEqual(expectedDevices(clicks));
    },
  );
});

/** Spread over `spanSeconds` from a start, with the label variety of real traffic and one bot in twenty. */
function sampleClicks(spanSeconds: number): Click[] {
  const links = Array.from({ length: LINKS }, newLinkId);
  const devices = ['desktop', 'mobile', 'tablet'] as const;
  const referrers = ['direct', 'google.com', 't.co', 'facebook.com', 'news.ycombinator.com', 'reddit.com'];
  const countries = ['US', 'DE', 'FR', 'JP', 'BR', 'IN', 'GB', 'Unknown'];
  const browsers = ['Chrome', 'Safari', 'Firefox', 'Edge'];
  const systems = ['Windows', 'macOS', 'iOS', 'Android', 'Linux'];
  const start = Date.parse('2026-11-14T00:00:00Z');
  return Array.from({ length: CLICKS }, (_, i) =>
    click(links[i % LINKS] as string, new Date(start + ((i * 7_919) % spanSeconds) * 1_000).toISOString(), {
      device: devices[i % devices.length],
      referrer: referrers[i % referrers.length],
      country: countries[(i >> 2) % countries.length],
      browser: browsers[(i >> 3) % browsers.length],
      os: systems[i % systems.length],
      bot: i % 20 === 0,
    }),
  );
}

function expectedDevices(clicks: readonly Click[]) {
  const counts = new Map<string, number>();
  for (const c of clicks) if (!c.bot) counts.set(c.device, (counts.get(c.device) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, clicks]) => ({ label, clicks: String(clicks) }));
}
