import {
  type AdminDetailedStats,
  type AdminTrends,
  billingStream,
  type Link,
  linkEvents,
  readClickLine,
  userEvents,
} from '@sniplink/contracts';
import { isProAt } from '@sniplink/domain';
import type { ClickStream, RecordedEvent } from '@sniplink/platform';
import { adminStatsProjection } from '@sniplink/projections';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { describe, expect, it } from 'vitest';
import { readEntireLog } from '../../../../projections/src/testing/fixtures';

const ADMIN = `stats-admin.${Date.now()}@example.com`;
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CURL = 'curl/8.5.0';

const t = testApiWithAdmin(ADMIN);

const detailed = async () => {
  const answer = await t.admin.get<AdminDetailedStats>('/api/admin/stats/detailed');
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('GET /api/admin/stats and /stats/detailed', () => {
  it('answers an admin with every field of the detailed statistics, and the summary with the headline four', async () => {
    const stats = await detailed();
    expect(Object.keys(stats).sort()).toEqual(
      [
        'totalUsers',
        'activeSubscriptions',
        'totalLinks',
        'demoLinks',
        'totalClicks',
        'linksCreatedToday',
        'clicksToday',
        'newUsersThisMonth',
        'freeUsers',
        'paidUsers',
        'grantedUsers',
        'monthlyRevenue',
        'timeZone',
      ].sort(),
    );
    expect(stats.timeZone).toBe('UTC');
    const summary = await t.admin.get('/api/admin/stats');
    expect(summary.status).toBe(200);
    expect(summary.headers.get('cache-control')).toBe('no-store');
    expect(summary.body).toEqual({
      totalUsers: stats.totalUsers,
      activeSubscriptions: stats.activeSubscriptions,
      totalLinks: stats.totalLinks,
      demoLinks: stats.demoLinks,
      totalClicks: stats.totalClicks,
    });
  });

  it('after random sign-ups, links, deletions, clicks, subscriptions, grants and erasures, equals a recount from the event log and the click log', async () => {
    const seed = Number(process.env.STATS_SEED ?? Date.now() % 100_000);
    const random = mulberry32(seed);
    console.log(`stats recount: STATS_SEED=${seed}`);
    const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
    const users: { client: HttpClient; userId: string; links: Link[] }[] = [];
    let clicksSent = 0;

    const signUp = async () => {
      users.push({ ...(await signedUpClient(t.api, 'stats')), links: [] });
    };
    const createLink = async (user: (typeof users)[number], step: number) => {
      const answer = await user.client.post<Link>('/api/links', {
        originalUrl: `https://example.com/${step}`,
        title: null,
      });
      // A Free account holds at most 5 links: the sixth is refused, and nothing is counted.
      expect([201, 403], answer.text).toContain(answer.status);
      if (answer.status === 201) user.links.push(answer.body);
    };
    const follow = async (link: Link, agent: string) => {
      const answer = await fetch(`${t.api.baseUrl}/s/${link.shortCode}`, {
        redirect: 'manual',
        headers: { 'user-agent': agent },
      });
      expect(answer.status).toBe(302);
      clicksSent += 1;
    };
    const erase = async (user: (typeof users)[number]) => {
      await t.api.runtime.accounts.erase(user.userId);
      users.splice(users.indexOf(user), 1);
    };

    // Each kind of change at least once: a paying user erased, a grant, a grant taken back, a bot.
    for (let i = 0; i < 4; i++) await signUp();
    const [payer, grantee, revoked, eraser] = users as [(typeof users)[number], ...(typeof users)[number][]];
    await subscribe(payer, 'yearly');
    await subscribe(eraser as (typeof users)[number], 'monthly');
    await t.api.runtime.accounts.setPlan(grantee?.userId ?? '', 'monthly');
    await t.api.runtime.accounts.setPlan(revoked?.userId ?? '', 'yearly');
    await t.api.runtime.accounts.setPlan(revoked?.userId ?? '', 'free');
    await createLink(payer, 0);
    await follow(payer.links[0] as Link, CHROME);
    await follow(payer.links[0] as Link, CURL);
    await erase(eraser as (typeof users)[number]);

    for (let step = 1; step < 70; step++) {
      const roll = random();
      const user = pick(users);
      if (roll < 0.2 || !user) await signUp();
      else if (roll < 0.45) await createLink(user, step);
      else if (roll < 0.55) {
        const link = user.links.pop();
        if (link) expect((await user.client.request('DELETE', `/api/links/${link.id}`)).status).toBe(200);
      } else if (roll < 0.75) {
        const link = pick(users.flatMap((u) => u.links));
        if (link) await follow(link, random() < 0.25 ? CURL : CHROME);
      } else if (roll < 0.8) {
        const answer = await t.api.client().post('/api/demo/shorten', { url: `https://example.org/${step}` });
        expect(answer.status, answer.text).toBe(201);
      } else {
        // The payer stays paying and the revoked grantee stays Free, so that every figure is above 0 at the
        // end whatever the seed: a recount of zeros would prove nothing.
        const other = pick(users.filter((candidate) => candidate !== payer && candidate !== revoked));
        if (!other) await signUp();
        else if (roll < 0.88) await subscribe(other, random() < 0.5 ? 'monthly' : 'yearly');
        else if (roll < 0.95)
          await t.api.runtime.accounts.setPlan(other.userId, random() < 0.6 ? 'monthly' : 'free');
        else await erase(other);
      }
    }

    // Every click published and counted, every event projected.
    const stream = t.api.runtime.clickStream;
    await until(
      async () => sum(await stream.endOffsets()),
      (published) => published === clicksSent,
      10_000,
    );
    const head = await t.api.runtime.eventStore.headPosition();
    expect(await t.api.runtime.progress.waitFor(adminStatsProjection, head, 10_000)).toBe(true);
    const expected = recount(
      await readEntireLog(t.api.runtime.eventStore),
      await readClickLog(stream),
      new Date(),
    );
    const stats = await until(detailed, (s) => s.totalClicks === expected.totalClicks, 10_000);
    expect({ seed, ...stats }).toEqual({ seed, ...expected, timeZone: 'UTC' });
    // Not a recount of nothing: every kind of figure moved.
    for (const figure of ['totalUsers', 'paidUsers', 'freeUsers', 'totalClicks', 'monthlyRevenue'] as const)
      expect(stats[figure]).toBeGreaterThan(0);
    // The buckets of accounts add up to the accounts.
    expect(stats.freeUsers + stats.paidUsers + stats.grantedUsers).toBe(stats.totalUsers);
  });
});

describe('GET /api/admin/stats/trends', () => {
  it('answers the last 30 days, today last, each day agreeing with the figures of today', async () => {
    const user = await signedUpClient(t.api, 'trends');
    const made = await user.client.post<Link>('/api/links', {
      originalUrl: 'https://example.com/t',
      title: null,
    });
    expect(made.status).toBe(201);
    await subscribe(user, 'monthly');
    const stats = await until(detailed, (s) => s.linksCreatedToday > 0, 10_000);
    const answer = await t.admin.get<AdminTrends>('/api/admin/stats/trends');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body.timeZone).toBe('UTC');
    const { days } = answer.body;
    expect(days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(days.at(-1)?.date).toBe(today);
    // One a day, oldest first, no day missing.
    for (let i = 1; i < days.length; i++)
      expect(Date.parse(days[i]?.date ?? '') - Date.parse(days[i - 1]?.date ?? '')).toBe(86_400_000);
    expect(days.at(-1)).toMatchObject({
      linksCreated: stats.linksCreatedToday,
      clicks: stats.clicksToday,
    });
    expect(days.at(-1)?.signups).toBeGreaterThanOrEqual(1);
    // Revenue: the subscriptions started today, in cents.
    expect(days.at(-1)?.revenue).toBeGreaterThan(0);
  });
});

/** Pro through the local test checkout: the app's own route, the provider's page, its webhook. */
async function subscribe({ client }: { client: HttpClient }, plan: 'monthly' | 'yearly') {
  const answer = await client.post<{ sessionUrl?: string }>('/api/create-subscription', { plan });
  expect(answer.status).toBe(200);
  if (!answer.body.sessionUrl) return; // Pro already
  const path = new URL(answer.body.sessionUrl).pathname;
  const paid = await client.post(`${path}/pay`, undefined, {
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect(paid.status).toBe(303);
}

const sum = (offsets: Map<number, bigint>) =>
  [...offsets.values()].reduce((total, n) => total + Number(n), 0);

/** Every click line in the log, read from offset 0 by a group of its own. */
async function readClickLog(stream: ClickStream): Promise<{ id: string; atMs: number; bot: boolean }[]> {
  const end = await stream.endOffsets();
  const clicks: { id: string; atMs: number; bot: boolean }[] = [];
  const read = new Map<number, bigint>();
  const consumer = stream.consume({
    groupId: `recount-${Date.now()}`,
    autoCommit: false,
    startOffsets: async () => new Map([...end.keys()].map((partition) => [partition, 0n])),
    eachBatch: async (batch) => {
      for (const message of batch.messages) {
        const line = typeof message.value === 'string' ? readClickLine(message.value) : undefined;
        if (line) clicks.push(line);
      }
      read.set(batch.partition, batch.nextOffset);
    },
  });
  await until(
    async () => [...end].every(([partition, next]) => (read.get(partition) ?? 0n) >= next),
    (done) => done,
    10_000,
  );
  await consumer.stop();
  return clicks;
}

/**
 * The figures counted again, straight from the events and clicks, by rules written out here rather than
 * the projection's: what an admin expects each to mean (UTC days).
 */
function recount(events: RecordedEvent[], clicks: { id: string; atMs: number; bot: boolean }[], now: Date) {
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const erased = new Set<string>();
  const granted = new Map<string, boolean>();
  const subscriptions = new Map<string, { userId: string; data: Record<string, unknown> }>();
  // Demo links no account holds: a visitor's (`visitor-…`) until claimed or gone.
  const demo = new Set<string>();
  let users = 0;
  let links = 0;
  let linksCreatedToday = 0;
  let newUsersThisMonth = 0;
  for (const event of events) {
    const at = event.occurredAt.getTime();
    const userId = event.streamId.replace(/^(user|billing)-/, '');
    if (userEvents.includes(event) || linkEvents.includes(event)) {
      if (event.type === 'UserRegistered') {
        users += 1;
        if (at >= monthStart) newUsersThisMonth += 1;
      } else if (event.type === 'UserErased') {
        users -= 1;
        erased.add(userId);
        granted.delete(userId);
      } else if (event.type === 'SubscriptionStarted') granted.set(userId, true);
      else if (event.type === 'SubscriptionEnded') granted.delete(userId);
      else if (event.type === 'LinkCreated') {
        links += 1;
        if (event.data.ownerId.startsWith('visitor-')) demo.add(event.data.linkId);
        else if (at >= dayStart) linksCreatedToday += 1;
      } else if (event.type === 'LinkOwnerChanged') demo.delete(event.streamId.replace(/^link-/, ''));
      else if (event.type === 'LinkDeleted') {
        links -= 1;
        demo.delete(event.streamId.replace(/^link-/, ''));
      }
    } else if (billingStream.holds(event) && event.type !== 'BillingCustomerRecorded') {
      const data = event.data as Record<string, unknown>;
      subscriptions.set(String(data.subscriptionId), { userId, data });
    }
  }
  const pro = [...subscriptions.values()].filter(({ data }) =>
    isProAt(
      {
        status: data.status as 'active',
        periodEnd: new Date(String(data.periodEnd)),
        cancelAtPeriodEnd: data.cancelAtPeriodEnd === true,
      },
      now,
    ),
  );
  const paid = new Set(pro.map((s) => s.userId).filter((id) => !erased.has(id)));
  const grantedOnly = [...granted.keys()].filter((id) => !paid.has(id) && !pro.some((s) => s.userId === id));
  const humans = new Map(clicks.filter((c) => !c.bot).map((c) => [c.id, c.atMs]));
  return {
    totalUsers: users,
    activeSubscriptions: pro.length,
    totalLinks: links - demo.size,
    demoLinks: demo.size,
    totalClicks: humans.size,
    linksCreatedToday,
    clicksToday: [...humans.values()].filter((at) => at >= dayStart).length,
    newUsersThisMonth,
    freeUsers: users - paid.size - grantedOnly.length,
    paidUsers: paid.size,
    grantedUsers: grantedOnly.length,
    monthlyRevenue: Math.round(
      pro.reduce((total, { data }) => total + Number(data.amount) / (data.plan === 'yearly' ? 12 : 1), 0),
    ),
  };
}

/** A small seeded generator: a failing run is repeated with STATS_SEED. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
