import { clickMessage, type Link, type LinkAnalytics } from '@sniplink/contracts';
import { countedClicks, type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { sampleClick } from '@sniplink/test-support/clicks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

let api: TestApi;
let owner: HttpClient;
let link: Link;
/** When the clicks of "now" were made (the range's hours and days are counted from the request's time). */
let clickedAt: number;

/** The UTC calendar day `days` from the instant's, as YYYY-MM-DD. */
const utcDay = (at: number, days = 0) => new Date(at + days * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  api = await startTestApi();
  owner = api.client();
  await owner.post('/api/auth/register', {
    email: `ranges.${Date.now()}@example.com`,
    password: 'correct horse',
  });
  link = (await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/ranges', title: null }))
    .body;
  clickedAt = Date.now();
  // Clicks of earlier days go onto the click log as the redirect put them there on those days; today's
  // through the redirect itself.
  const earlier = [
    sampleClick(link.id, { atMs: clickedAt - 2 * DAY_MS, country: 'DE', browser: 'Firefox', os: 'Linux' }),
    sampleClick(link.id, {
      atMs: clickedAt - 8 * DAY_MS,
      device: 'tablet',
      referrer: 'news.ycombinator.com',
    }),
    sampleClick(link.id, { atMs: clickedAt - 9 * DAY_MS }),
    sampleClick(link.id, { atMs: clickedAt - 40 * DAY_MS }),
  ];
  await api.runtime.clickStream.publish(earlier.map(clickMessage));
  for (const userAgent of [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ]) {
    const response = await fetch(`${api.baseUrl}/s/${link.shortCode}`, {
      redirect: 'manual',
      headers: { 'user-agent': userAgent, referer: 'https://www.google.com/' },
    });
    expect(response.status).toBe(302);
  }
  expect((await countedClicks(api, link.id)).clicks).toBe(6);
});
afterAll(() => api.close());

async function analytics(query: string) {
  return owner.get<LinkAnalytics>(`/api/analytics/link/${link.id}${query}`);
}

describe('a link analytics over a range', () => {
  it('answers as before without a range (all-time breakdowns, 30 UTC days) and adds the last 30 days as `period`', async () => {
    const { status, body } = await analytics('');
    expect(status).toBe(200);
    expect(body.deviceBreakdown).toEqual({ desktop: 4, mobile: 1, tablet: 1 });
    expect(body.clicksByDay).toHaveLength(30);
    expect(body.period).toMatchObject({ range: '30d', timeZone: 'UTC', granularity: 'day', total: 5 });
    // The 40-day-old click is in the 30 days before.
    expect(body.period.previous.total).toBe(1);
    expect(body.period.change).toBe(400);
  });

  it('24h: 24 hourly buckets ending with the current hour, with the breakdowns of those hours only', async () => {
    const { body } = await analytics('?range=24h');
    const { period } = body;
    expect(period.granularity).toBe('hour');
    expect(period.clicks).toHaveLength(24);
    const starts = period.clicks.map(({ start }) => Date.parse(start));
    expect(starts.every((start, i) => i === 0 || start - (starts[i - 1] as number) === HOUR_MS)).toBe(true);
    expect(starts.at(-1)).toBe(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    const clickedHour = Math.floor(clickedAt / HOUR_MS) * HOUR_MS;
    expect(period.clicks.find(({ start }) => Date.parse(start) === clickedHour)?.clicks).toBe(2);
    expect(period.total).toBe(2);
    expect(period.devices).toEqual([
      { label: 'desktop', clicks: 1 },
      { label: 'mobile', clicks: 1 },
      { label: 'tablet', clicks: 0 },
    ]);
    expect(period.browsers).toEqual([
      { label: 'Chrome', clicks: 1 },
      { label: 'Safari', clicks: 1 },
    ]);
    expect(period.systems).toEqual([
      { label: 'iOS', clicks: 1 },
      { label: 'Windows', clicks: 1 },
    ]);
    expect(period.referrers).toEqual([{ label: 'google.com', clicks: 2 }]);
    // The 24 hours before had none: no per cent to tell.
    expect(period.previous).toMatchObject({ to: period.from, total: 0 });
    expect(period.change).toBeNull();
  });

  it('7d: seven days of the time zone ending today, and the seven days before compared', async () => {
    const { body } = await analytics('?range=7d&tz=UTC');
    const { period } = body;
    expect(period.granularity).toBe('day');
    expect(period.clicks.map(({ start }) => start.slice(0, 10))).toEqual(
      Array.from({ length: 7 }, (_, i) => utcDay(Date.now(), i - 6)),
    );
    expect(period.total).toBe(3);
    expect(period.clicks.find(({ start }) => start.startsWith(utcDay(clickedAt, -2)))?.clicks).toBe(1);
    expect(period.countries).toEqual([
      { label: 'Unknown', clicks: 2 },
      { label: 'DE', clicks: 1 },
    ]);
    expect(period.previous).toEqual({
      from: `${utcDay(Date.now(), -13)}T00:00:00.000Z`,
      to: `${utcDay(Date.now(), -6)}T00:00:00.000Z`,
      total: 2,
    });
    expect(period.change).toBe(50);
    expect(period.devices.find(({ label }) => label === 'tablet')?.clicks).toBe(0);
  });

  it("counts the reader's days: in a time zone 14 hours ahead of UTC, days start at 10:00 UTC", async () => {
    const { body } = await analytics('?range=7d&tz=Pacific/Kiritimati');
    expect(body.period.timeZone).toBe('Pacific/Kiritimati');
    expect(body.period.clicks.every(({ start }) => start.endsWith('T10:00:00.000Z'))).toBe(true);
    expect(body.period.total).toBe(3);
  });

  it('a custom range: its days, both ends included, and the same number of days before it', async () => {
    const from = utcDay(clickedAt, -9);
    const to = utcDay(clickedAt, -8);
    const { status, body } = await analytics(`?from=${from}&to=${to}`);
    expect(status).toBe(200);
    expect(body.period).toMatchObject({ range: 'custom', granularity: 'day', total: 2 });
    expect(body.period.clicks).toEqual([
      { start: `${from}T00:00:00.000Z`, clicks: 1 },
      { start: `${to}T00:00:00.000Z`, clicks: 1 },
    ]);
    expect(body.period.devices[0]).toEqual({ label: 'desktop', clicks: 1 });
    expect(body.period.referrers).toEqual([
      { label: 'direct', clicks: 1 },
      { label: 'news.ycombinator.com', clicks: 1 },
    ]);
    expect(body.period.previous).toEqual({
      from: `${utcDay(clickedAt, -11)}T00:00:00.000Z`,
      to: `${from}T00:00:00.000Z`,
      total: 0,
    });
  });

  it.each([
    ['?range=1y', 'range must be one of 24h, 7d, 30d, 90d', 'range'],
    ['?range=7d&range=30d', 'range must be one of 24h, 7d, 30d, 90d', 'range'],
    ['?range=7d&from=2026-01-01&to=2026-01-02', 'range cannot be given with from and to', 'range'],
    ['?from=2026-01-01', 'to is required with from', 'to'],
    ['?to=2026-01-01', 'from is required with to', 'from'],
    ['?from=2026-01-31&to=2026-01-02', 'to must not be before from', 'to'],
    ['?from=2026-1-2&to=2026-01-02', 'from must be a date written YYYY-MM-DD', 'from'],
    ['?from=2026-02-30&to=2026-03-02', 'from is not a day of the calendar', 'from'],
    ['?from=2024-01-01&to=2025-06-01', 'from must be at most 366 days before to', 'from'],
    [`?from=${utcDay(Date.now(), 2)}&to=${utcDay(Date.now(), 3)}`, 'to must not be after today', 'to'],
    ['?range=7d&tz=Mars/Olympus', 'tz is not a time zone (an IANA name such as Europe/Berlin)', 'tz'],
  ])('answers %s with 400 naming the problem', async (query, message, field) => {
    const { status, body } = await analytics(query);
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'VALIDATION_FAILED', message, field });
  });
});
