import type { OwnedPremiumSlug } from '@sniplink/contracts';
import { countedClicks, type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { addedPremiumSlug, premiumSlugOwner, uniqueSlug } from '@sniplink/test-support/premium';
import { describe, expect, it } from 'vitest';
import { TestPayments } from '../billing/testing';

const ADMIN_EMAIL = 'owners.admin@example.com';

const payments = new TestPayments();
const t = testApiWithAdmin(ADMIN_EMAIL, { env: { PUBLIC_URL: 'https://snip.example.com' }, payments });

const addSlug = () => addedPremiumSlug(t.admin, { slug: uniqueSlug('own') });

/** A Pro user who bought a fresh slug: the provider's success event delivered to the webhook. */
const owner = (label: string) => premiumSlugOwner(t.api, payments, t.admin, label);

const setUrl = (client: HttpClient, slug: string, url: string | null) =>
  client.request<OwnedPremiumSlug & { field?: string; code?: string }>(
    'PUT',
    `/api/marketplace/premium-slugs/${slug}/url`,
    { url },
  );

describe("an owner's premium slug target", () => {
  it('the owner sets it (shown in their list), another user gets 404, signed out 401, a bad URL 400 naming url, null clears', async () => {
    const { client, slug } = await owner('owners.set');
    const set = await setUrl(client, slug.slug.toUpperCase(), 'https://example.com/landing');
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      id: slug.id,
      slug: slug.slug,
      targetUrl: 'https://example.com/landing',
      currentUrl: 'https://example.com/landing',
    });
    const mine = (await client.get<OwnedPremiumSlug[]>('/api/marketplace/my-premium-slugs')).body;
    expect(mine.map((owned) => owned.targetUrl)).toEqual(['https://example.com/landing']);

    const other = await signedUpClient(t.api, 'owners.other');
    expect((await setUrl(other.client, slug.slug, 'https://example.com/theirs')).status).toBe(404);
    expect((await setUrl(t.api.client(), slug.slug, 'https://example.com/x')).status).toBe(401);
    expect((await setUrl(client, 'no-such-slug', 'https://example.com/x')).status).toBe(404);

    for (const bad of [
      'not a url',
      'ftp://example.com/file',
      'http://localhost/x',
      'https://snip.example.com/s/abc',
    ]) {
      const refused = await setUrl(client, slug.slug, bad);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.field).toBe('url');
    }

    // The answer's names are taken on input too; the answer carries both.
    for (const name of ['targetUrl', 'currentUrl']) {
      const set = await client.request<OwnedPremiumSlug>(
        'PUT',
        `/api/marketplace/premium-slugs/${slug.slug}/url`,
        {
          [name]: `https://example.com/${name}`,
        },
      );
      expect(set.status, set.text).toBe(200);
      expect(set.body).toMatchObject({
        targetUrl: `https://example.com/${name}`,
        currentUrl: `https://example.com/${name}`,
      });
    }
    for (const body of [{}, { url: 'https://example.com/a', currentUrl: 'https://example.com/b' }]) {
      const refused = await client.request<{ field?: string }>(
        'PUT',
        `/api/marketplace/premium-slugs/${slug.slug}/url`,
        body,
      );
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.field).toBe('url');
    }

    const cleared = await setUrl(client, slug.slug, null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.targetUrl).toBeNull();
    await setUrl(client, slug.slug, 'https://example.com/again');
    expect((await setUrl(client, slug.slug, '  ')).body.targetUrl).toBeNull();
  });
});

describe("a premium slug owner's short codes", () => {
  it('may be 1-20 characters for an owner, told so by the availability check; 3-20 for everyone else', async () => {
    const { client } = await owner('owners.codes');
    const code = `q${Date.now().toString(36).slice(-1)}`;
    expect((await client.get(`/api/links/check-availability/${code}`)).body).toEqual({
      available: true,
      message: 'This short code is available',
    });
    const created = await client.post<{ shortCode: string; id: string }>('/api/links', {
      originalUrl: 'https://example.com/short',
    });
    expect(created.status).toBe(201);
    const renamed = await client.request<{ shortCode: string }>('PATCH', `/api/links/${created.body.id}`, {
      shortCode: code,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.shortCode).toBe(code);
    const tooLong = await client.get<{ available: boolean; message: string }>(
      `/api/links/check-availability/${'x'.repeat(21)}`,
    );
    expect(tooLong.body).toEqual({
      available: false,
      message: '1-20 characters: letters, numbers, hyphens, and underscores only',
    });

    const everyone = await signedUpClient(t.api, 'owners.codes.other');
    expect((await everyone.client.get('/api/links/check-availability/x')).body).toEqual({
      available: false,
      message: '3-20 characters: letters, numbers, hyphens, and underscores only',
    });
    const refused = await everyone.client.post<{ field?: string; message?: string }>('/api/links', {
      originalUrl: 'https://example.com/short',
      shortCode: 'y',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('3-20 characters');
  });
});

describe('/s/{premium slug}', () => {
  it('shows a friendly page for an unsold slug and for an owned slug without target, then redirects once set, counting the click', async () => {
    const unsold = await addSlug();
    // Twice: the second is cached, and the fast paths hand it on to the route's page.
    for (let visit = 0; visit < 2; visit++) {
      const page = await t.api.client().get(`/s/${unsold.slug}`);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain('This premium link is not set up yet');
    }

    const { client, slug } = await owner('owners.redirect');
    expect((await t.api.client().get(`/s/${slug.slug}`)).text).toContain(
      'This premium link is not set up yet',
    );
    await setUrl(client, slug.slug, 'https://example.com/premium');
    // Twice: the second answer comes from the cache (the fast path).
    for (let visit = 0; visit < 2; visit++) {
      const redirect = await t.api.client().get(`/s/${slug.slug}`, {
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36',
      });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe('https://example.com/premium');
    }
    expect((await countedClicks(t.api, slug.id)).clicks).toBe(2);

    // A new target is seen at once (the cache is told); removing it brings the page back.
    await setUrl(client, slug.slug, 'https://example.com/moved');
    expect((await t.api.client().get(`/s/${slug.slug}`)).headers.get('location')).toBe(
      'https://example.com/moved',
    );
    await setUrl(client, slug.slug, null);
    expect((await t.api.client().get(`/s/${slug.slug}`)).status).toBe(404);
  });

  it('keeps redirecting after the owner’s subscription ends, and the owner may still change it', async () => {
    const { client, userId, slug } = await owner('owners.lapsed');
    await setUrl(client, slug.slug, 'https://example.com/kept');
    await t.api.runtime.accounts.setPlan(userId, 'free');
    expect((await t.api.client().get(`/s/${slug.slug}`)).headers.get('location')).toBe(
      'https://example.com/kept',
    );
    const changed = await setUrl(client, slug.slug, 'https://example.com/still-mine');
    expect(changed.status).toBe(200);
    expect((await t.api.client().get(`/s/${slug.slug}`)).headers.get('location')).toBe(
      'https://example.com/still-mine',
    );
  });
});
