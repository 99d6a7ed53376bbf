import type { ErrorBody } from '@sniplink/contracts';
import { type HttpClient, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const signedIn = async () => (await signedUpClient(api, 'sign-out')).client;

/** What a browser sends with a top-level navigation that `site` started. */
const navigation = (site: string) => ({
  'sec-fetch-site': site,
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
});

/** What a browser sends when the "Sign out?" page's button submits its form. */
const signOutForm = (origin: string, site = 'same-origin') => ({
  ...navigation(site),
  origin,
  'content-type': 'application/x-www-form-urlencoded',
});

const stillSignedIn = async (client: HttpClient) => (await client.get('/api/auth/user')).status === 200;

describe('GET /api/logout sent by another site', () => {
  it.each(['cross-site', 'same-site'])(
    'Sec-Fetch-Site: %s answers 200 with the "Sign out?" page and signs nobody out',
    async (site) => {
      const client = await signedIn();
      const response = await client.get('/api/logout', navigation(site));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(response.text).toContain('<h1>Sign out?</h1>');
      expect(response.text).toContain('<form method="post" action="/api/logout">');
      expect(await stillSignedIn(client)).toBe(true);
    },
  );

  it('the page runs no script, and its policy lets its form post only to this site and nobody frame it', async () => {
    const client = await signedIn();
    const response = await client.get('/api/logout', navigation('cross-site'));
    expect(response.text).not.toMatch(/<script|\son\w+=/i);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('script-src');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('a browser without a session is sent home, as before (there is nothing to confirm)', async () => {
    const response = await api.client().get('/api/logout', navigation('cross-site'));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
  });
});

describe('the "Sign out?" button: POST /api/logout', () => {
  it('signs out and goes to / when posted from this site', async () => {
    const client = await signedIn();
    const oldCookie = client.cookies.get('sid');
    const response = await client.request('POST', '/api/logout', '', signOutForm(api.config.publicUrl));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expect(client.cookies.has('sid')).toBe(false);
    const replay = api.client();
    replay.cookies.set('sid', oldCookie ?? '');
    expect(await stillSignedIn(replay)).toBe(false);
  });

  it.each([
    ['an Origin of another site', signOutForm('https://evil.example', 'cross-site')],
    [
      'no Origin but Sec-Fetch-Site: cross-site',
      { ...navigation('cross-site'), 'content-type': 'application/x-www-form-urlencoded' },
    ],
    [
      'no Origin but Sec-Fetch-Site: same-site',
      { ...navigation('same-site'), 'content-type': 'application/x-www-form-urlencoded' },
    ],
  ])('refuses a post with %s: 403 FORBIDDEN_ORIGIN, still signed in', async (_case, headers) => {
    const client = await signedIn();
    const response = await client.request<ErrorBody>('POST', '/api/logout', '', headers);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN_ORIGIN');
    expect(await stillSignedIn(client)).toBe(true);
  });

  it('takes only an empty form: another body type is 415, and other routes still refuse forms', async () => {
    const client = await signedIn();
    const text = await client.request('POST', '/api/logout', 'x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const form = await client.request('POST', '/api/auth/logout', '', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect(await stillSignedIn(client)).toBe(true);
  });
});

describe('GET /api/logout from this site, typed or bookmarked', () => {
  it.each(['same-origin', 'none', undefined])(
    'Sec-Fetch-Site: %s signs out at once and goes to /',
    async (site) => {
      const client = await signedIn();
      const response = await client.get('/api/logout', site ? navigation(site) : {});
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/');
      expect(await stillSignedIn(client)).toBe(false);
    },
  );
});
