import type { Link, LinkAnalytics } from '@sniplink/contracts';
import { countedClicks, type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';

const UA = {
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  pixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
};
/** Placed as analytics places them, by the geoip-country data the redirect ships with. */
const ADDRESS = { US: '8.8.8.8', GB: '81.2.69.160' };
const TARGET = 'https://example.com/main';

// TRUST_PROXY: the test gives each visit its address in X-Forwarded-For, as a proxy would.
const setup = testApiWithAdmin(`targeting-admin.${Date.now()}@example.com`, { env: { TRUST_PROXY: '1' } });

async function linkOf(client: HttpClient, body: Record<string, unknown>): Promise<Link> {
  const created = await client.post<Link>('/api/links', { originalUrl: TARGET, ...body });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/** Where a visit is sent (the Location of its 302). */
async function sentTo(code: string, headers: Record<string, string> = {}): Promise<string | null> {
  const response = await fetch(`${setup.api.baseUrl}/s/${code}`, {
    redirect: 'manual',
    headers: { 'user-agent': UA.windows, ...headers },
  });
  expect(response.status).toBe(302);
  return response.headers.get('location');
}

describe('targeting rules', () => {
  it('sends each visitor to the first rule they match, by country, device or language, else the target', async () => {
    const { client } = await signedUpClient(setup.api, 'rules');
    const link = await linkOf(client, {
      rules: [
        { when: { country: ['gb'], device: ['mobile'] }, url: 'https://example.co.uk/mobile' },
        { when: { country: ['GB', 'IE'] }, url: 'example.co.uk/' },
        { when: { device: ['android'] }, url: 'https://example.com/android' },
        { when: { language: ['FR', 'de'] }, url: 'https://example.com/fr-de' },
      ],
    });
    expect(link.rules).toEqual([
      { when: { country: ['GB'], device: ['mobile'] }, url: 'https://example.co.uk/mobile' },
      { when: { country: ['GB', 'IE'] }, url: 'https://example.co.uk/' },
      { when: { device: ['android'] }, url: 'https://example.com/android' },
      { when: { language: ['fr', 'de'] }, url: 'https://example.com/fr-de' },
    ]);
    const code = link.shortCode;
    const gb = { 'x-forwarded-for': ADDRESS.GB };
    const us = { 'x-forwarded-for': ADDRESS.US };
    expect(await sentTo(code, { ...gb, 'user-agent': UA.iphone })).toBe('https://example.co.uk/mobile');
    expect(await sentTo(code, gb)).toBe('https://example.co.uk/');
    expect(await sentTo(code, { ...gb, 'user-agent': UA.pixel })).toBe('https://example.co.uk/mobile');
    expect(await sentTo(code, { ...us, 'user-agent': UA.pixel })).toBe('https://example.com/android');
    expect(await sentTo(code, { ...us, 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' })).toBe(
      'https://example.com/fr-de',
    );
    expect(await sentTo(code, { ...us, 'accept-language': 'en-GB' })).toBe(TARGET);
    expect(await sentTo(code, { ...us, 'user-agent': UA.iphone })).toBe(TARGET);
  });

  it('replaces the rules on an edit and clears them with null or []; a plain link is redirected as before', async () => {
    const { client } = await signedUpClient(setup.api, 'edit');
    const link = await linkOf(client, {});
    expect(link.rules).toEqual([]);
    const us = { 'x-forwarded-for': ADDRESS.US };
    expect(await sentTo(link.shortCode, us)).toBe(TARGET);
    const rules = [{ when: { country: ['US'] }, url: 'https://example.com/us' }];
    const edited = await client.patch<Link>(`/api/links/${link.id}`, { rules });
    expect([edited.status, edited.body.rules]).toEqual([200, rules]);
    expect(await sentTo(link.shortCode, us)).toBe('https://example.com/us');
    const untouched = await client.patch<Link>(`/api/links/${link.id}`, { title: 'Kept' });
    expect(untouched.body.rules).toEqual(rules);
    for (const cleared of [null, []]) {
      await client.patch(`/api/links/${link.id}`, { rules });
      const answer = await client.patch<Link>(`/api/links/${link.id}`, { rules: cleared });
      expect(answer.body.rules).toEqual([]);
      expect(await sentTo(link.shortCode, us)).toBe(TARGET);
    }
  });

  it('refuses bad rules with a 400 naming the problem, and keeps nothing of the request', async () => {
    const { client } = await signedUpClient(setup.api, 'bad');
    const refusals: [unknown, string][] = [
      [[{ when: {}, url: 'https://example.com/' }], 'at least one condition'],
      [[{ when: { country: [] }, url: 'https://example.com/' }], 'at least one condition'],
      [[{ when: { country: ['France'] }, url: 'https://example.com/' }], 'two-letter ISO 3166 code'],
      [[{ when: { device: ['tablet'] }, url: 'https://example.com/' }], 'ios, android, desktop, mobile'],
      [[{ when: { language: ['english'] }, url: 'https://example.com/' }], 'language code'],
      [[{ when: { weather: ['rain'] }, url: 'https://example.com/' }], 'weather is not a condition'],
      [[{ when: { country: ['FR'] } }], 'is required'],
      [
        Array.from({ length: 21 }, () => ({ when: { country: ['FR'] }, url: 'https://example.fr/' })),
        'at most 20 rules',
      ],
    ];
    for (const [rules, problem] of refusals) {
      const answer = await client.post('/api/links', { originalUrl: TARGET, rules });
      expect([answer.status, answer.text]).toEqual([400, expect.stringContaining(problem)]);
      expect(answer.text).toContain('VALIDATION_FAILED');
    }
    for (const url of [
      'ftp://example.com/',
      'http://localhost/x',
      `${setup.api.baseUrl}/s/abc`,
      'not a url',
    ]) {
      const answer = await client.post<{ code: string; message: string }>('/api/links', {
        originalUrl: TARGET,
        rules: [
          { when: { country: ['FR'] }, url: 'https://example.fr/' },
          { when: { country: ['DE'] }, url },
        ],
      });
      expect([answer.status, answer.body.code]).toEqual([400, 'INVALID_URL']);
      expect(answer.body.message).toMatch(/^rules\[1\]\.url: /);
    }
    const link = await linkOf(client, { rules: [{ when: { country: ['FR'] }, url: 'https://example.fr/' }] });
    const refused = await client.patch(`/api/links/${link.id}`, {
      title: 'Not kept',
      rules: [{ when: { country: ['FR'] }, url: 'ftp://example.fr/' }],
    });
    expect(refused.status).toBe(400);
    const after = await client.get<Link[]>('/api/links');
    expect(after.body.find((row) => row.id === link.id)).toMatchObject({
      title: null,
      rules: [{ when: { country: ['FR'] }, url: 'https://example.fr/' }],
    });
  });

  it('is refused to a Free account when the admin keeps targeting for Pro; clearing rules stays allowed', async () => {
    const { api, admin } = setup;
    const key = 'links.targeting.pro_only';
    expect((await admin.post('/api/admin/config', { key, value: '1' })).status).toBe(201);
    try {
      const free = await signedUpClient(api, 'free');
      const refused = await free.client.post<{ code: string; message: string }>('/api/links', {
        originalUrl: TARGET,
        rules: [{ when: { device: ['ios'] }, url: 'https://apps.apple.com/app' }],
      });
      expect([refused.status, refused.body]).toEqual([
        403,
        {
          code: 'SUBSCRIPTION_REQUIRED',
          message: expect.stringContaining('Targeting rules are available on Pro'),
        },
      ]);
      expect((await linkOf(free.client, { rules: [] })).rules).toEqual([]);
      const pro = await signedUpClient(api, 'pro');
      await api.runtime.accounts.setPlan(pro.userId, 'monthly');
      const rules = [{ when: { device: ['ios'] }, url: 'https://apps.apple.com/app' }];
      expect((await linkOf(pro.client, { rules })).rules).toEqual(rules);
    } finally {
      await admin.request('DELETE', `/api/admin/config/${key}`);
    }
  });

  it("counts in the link's analytics which rule sent each human click, and the main target's", async () => {
    const { client } = await signedUpClient(setup.api, 'counted');
    const link = await linkOf(client, {
      rules: [
        { when: { country: ['GB'] }, url: 'https://example.co.uk/' },
        { when: { device: ['ios'] }, url: 'https://apps.apple.com/app' },
      ],
    });
    const code = link.shortCode;
    await sentTo(code, { 'x-forwarded-for': ADDRESS.GB });
    await sentTo(code, { 'x-forwarded-for': ADDRESS.GB, 'user-agent': UA.iphone });
    await sentTo(code, { 'x-forwarded-for': ADDRESS.US, 'user-agent': UA.iphone });
    await sentTo(code, { 'x-forwarded-for': ADDRESS.US });
    await sentTo(code, { 'x-forwarded-for': ADDRESS.US });
    // A bot is sent by the rules too, and counted in no breakdown.
    await sentTo(code, {
      'x-forwarded-for': ADDRESS.GB,
      'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)',
    });
    expect(await countedClicks(setup.api, link.id)).toEqual({ clicks: 5, botClicks: 1 });
    const analytics = await client.get<LinkAnalytics>(`/api/analytics/link/${link.id}`);
    expect(analytics.body.ruleBreakdown).toEqual({ main: 2, '0': 2, '1': 1 });
    const plain = await linkOf(client, {});
    await sentTo(plain.shortCode);
    await countedClicks(setup.api, plain.id);
    expect((await client.get<LinkAnalytics>(`/api/analytics/link/${plain.id}`)).body.ruleBreakdown).toEqual({
      main: 1,
    });
  });
});
