import type { Link } from '@sniplink/contracts';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { type AppProcess, REDIRECT_MAIN, startAppProcess } from '@sniplink/test-support/app-process';
import { until } from '@sniplink/test-support/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const TARGET = 'https://example.com/limited';

/** The app and two redirect processes of their own (`npm run start:redirect`) on one database. */
let api: TestApi;
let redirects: AppProcess[] = [];
let owner: HttpClient;
beforeAll(async () => {
  api = await startTestApi();
  const env = { DATABASE_URL: api.database.connectionString, LOG_LEVEL: 'warn' };
  redirects = await Promise.all([
    startAppProcess(env, 90_000, REDIRECT_MAIN),
    startAppProcess(env, 90_000, REDIRECT_MAIN),
  ]);
  owner = api.client();
  await owner.post('/api/auth/register', {
    email: `controls.${Date.now()}@example.com`,
    password: 'correct horse',
  });
}, 120_000);
afterAll(async () => {
  await Promise.all(redirects.map((redirect) => redirect.stop('SIGTERM')));
  await api?.close();
});

const visit = (process: AppProcess, code: string) =>
  fetch(`${process.baseUrl}/s/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });

async function created(body: Record<string, unknown>): Promise<Link> {
  const response = await owner.post<Link>('/api/links', { originalUrl: TARGET, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('link controls across redirect processes', () => {
  it('redirects a click-limited link at most maxClicks times under concurrent visits on two processes', async () => {
    const link = await created({ maxClicks: 7 });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const response = await visit(redirects[i % 2] as AppProcess, link.shortCode);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 302)).toHaveLength(7);
    expect(statuses.filter((status) => status === 410)).toHaveLength(33);
  });

  it("shows each control's change on another redirect process within a second", async () => {
    const [first, second] = redirects as [AppProcess, AppProcess];
    const link = await created({});
    // Both processes have the plain link cached before each change.
    const seenWithin = async (expected: number) => {
      const started = Date.now();
      const status = await until(
        async () => (await visit(second, link.shortCode)).status,
        (answer) => answer === expected,
        1_000,
        20,
      );
      expect(status).toBe(expected);
      expect(Date.now() - started).toBeLessThan(1_000);
    };
    expect((await visit(first, link.shortCode)).status).toBe(302);
    expect((await visit(second, link.shortCode)).status).toBe(302);

    await owner.patch(`/api/links/${link.id}`, { paused: true });
    await seenWithin(404);
    await owner.patch(`/api/links/${link.id}`, { paused: false });
    await seenWithin(302);
    await owner.patch(`/api/links/${link.id}`, { password: 'shh' });
    await seenWithin(403);
    await owner.patch(`/api/links/${link.id}`, { password: null });
    await seenWithin(302);
    await owner.patch(`/api/links/${link.id}`, { maxClicks: 1, fallbackUrl: 'https://example.org/gone' });
    expect((await visit(first, link.shortCode)).status).toBe(302);
    const overLimit = await visit(second, link.shortCode);
    expect([overLimit.status, overLimit.headers.get('location')]).toEqual([302, 'https://example.org/gone']);
    await owner.patch(`/api/links/${link.id}`, {
      maxClicks: null,
      expiresAt: new Date(Date.now() + 1_500).toISOString(),
    });
    await seenWithin(302);
    // Past its time the link goes to its fallback, off the fast path on every process.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const late = await visit(second, link.shortCode);
    expect([late.status, late.headers.get('location')]).toEqual([302, 'https://example.org/gone']);
  });

  it('sends visitors by a change of targeting rules on another redirect process within a second', async () => {
    const [first, second] = redirects as [AppProcess, AppProcess];
    const link = await created({});
    const location = async (process: AppProcess) =>
      (await visit(process, link.shortCode)).headers.get('location');
    expect(await location(first)).toBe(TARGET);
    expect(await location(second)).toBe(TARGET);
    const sentWithin = async (expected: string) => {
      const started = Date.now();
      const sent = await until(
        () => location(second),
        (answer) => answer === expected,
        1_000,
        20,
      );
      expect(sent).toBe(expected);
      expect(Date.now() - started).toBeLessThan(1_000);
    };
    // The test's visits come from loopback (no country) with a desktop browser's agent.
    await owner.patch(`/api/links/${link.id}`, {
      rules: [{ when: { device: ['desktop'] }, url: 'https://example.com/desktop' }],
    });
    await sentWithin('https://example.com/desktop');
    await owner.patch(`/api/links/${link.id}`, { rules: [] });
    await sentWithin(TARGET);
  });
});
