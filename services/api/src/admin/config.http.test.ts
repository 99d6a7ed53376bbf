import type { ConfigEntry, DemoLink, ErrorBody, KnownSettingState, Link, User } from '@sniplink/contracts';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';

// TRUST_PROXY: the demo calls below speak from an address of their own.
const t = testApiWithAdmin('config.admin@example.com', { env: { TRUST_PROXY: '1' } });

type Answer = ConfigEntry & ErrorBody;
const list = async () => (await t.admin.get<ConfigEntry[]>('/api/admin/config')).body;
const add = (body: unknown) => t.admin.post<Answer>('/api/admin/config', body);
const put = (key: string, body: unknown) => t.admin.request<Answer>('PUT', `/api/admin/config/${key}`, body);
const remove = (key: string) =>
  t.admin.request<ErrorBody & { ok: true; key: string }>('DELETE', `/api/admin/config/${key}`);

describe('the settings the app reads', () => {
  const settings = async () => (await t.admin.get<KnownSettingState[]>('/api/admin/config-settings')).body;

  it('lists every known key with its value and default even when never set, and marks one once set', async () => {
    const before = await settings();
    expect(before.map((setting) => setting.key)).toEqual(
      expect.arrayContaining(['links.free_limit', 'links.pro_monthly_limit', 'demo.links_per_visitor']),
    );
    const free = before.find((setting) => setting.key === 'links.free_limit');
    expect(free).toEqual({
      key: 'links.free_limit',
      label: 'Links a Free account may hold',
      value: 5,
      default: 5,
      defaultFrom: 'FREE_LINK_LIMIT',
      set: false,
    });
    expect(before.find((setting) => setting.key === 'demo.links_per_visitor')).toMatchObject({
      defaultFrom: 'DEMO_MAX_PER_VISITOR',
    });

    expect((await add({ key: 'links.pro_monthly_limit', value: '900' })).status).toBe(201);
    expect((await settings()).find((setting) => setting.key === 'links.pro_monthly_limit')).toMatchObject({
      value: 900,
      default: 500,
      set: true,
    });
    expect((await remove('links.pro_monthly_limit')).status).toBe(200);
    expect((await settings()).find((setting) => setting.key === 'links.pro_monthly_limit')).toMatchObject({
      value: 500,
      set: false,
    });
  });

  it('is for admins only', async () => {
    const { client } = await signedUpClient(t.api, 'config.settings.user');
    expect((await client.get('/api/admin/config-settings')).status).toBe(403);
  });
});

describe('config entries', () => {
  it('adds an entry, lists it, refuses the same key again (409), changes and deletes it', async () => {
    const created = await add({
      key: 'support.email',
      value: 'help@example.com',
      description: 'Where users write',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      key: 'support.email',
      value: 'help@example.com',
      description: 'Where users write',
      updatedAt: expect.any(String),
    });
    expect(await list()).toContainEqual(created.body);

    const again = await add({ key: 'support.email', value: 'other@example.com' });
    expect(again).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect((await list()).find((entry) => entry.key === 'support.email')?.value).toBe('help@example.com');

    // The key may be sent with the change, as the documented body has it, as long as it is the same one.
    const changed = await put('support.email', {
      key: 'support.email',
      value: 'desk@example.com',
      description: '',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      key: 'support.email',
      value: 'desk@example.com',
      description: null,
    });
    expect(Date.parse(changed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));
    expect(await list()).toContainEqual(changed.body);

    expect(await remove('support.email')).toMatchObject({
      status: 200,
      body: { ok: true, key: 'support.email' },
    });
    expect((await list()).map((entry) => entry.key)).not.toContain('support.email');
    expect((await remove('support.email')).status).toBe(404);
    // Once deleted, the key is free again.
    expect((await add({ key: 'support.email', value: 'new@example.com' })).status).toBe(201);
  });

  it('requires key and value, naming the field; keys are 1-64 of a-z 0-9 _ . -; values at most 4096 characters', async () => {
    const refusals: [unknown, string, string][] = [
      [{ value: 'x' }, 'key', 'key is required'],
      [{ key: '', value: 'x' }, 'key', 'key must be 1-64 characters'],
      [{ key: 'Has Spaces', value: 'x' }, 'key', 'key must be 1-64 characters'],
      [{ key: 'k'.repeat(65), value: 'x' }, 'key', 'key must be 1-64 characters'],
      [{ key: 'plain' }, 'value', 'value is required'],
      [{ key: 'plain', value: '   ' }, 'value', 'value is required'],
      [{ key: 'plain', value: 'v'.repeat(4097) }, 'value', 'value must be at most 4,096 characters'],
      [{ key: 'plain', value: 5 }, 'value', 'value has the wrong type'],
      [
        { key: 'plain', value: 'x', description: 'd'.repeat(501) },
        'description',
        'description must be at most',
      ],
    ];
    for (const [body, field, message] of refusals) {
      const response = await add(body);
      expect({ body, status: response.status, field: response.body.field }).toEqual({
        body,
        status: 400,
        field,
      });
      expect(response.body.message).toContain(message);
    }
    expect((await put('plain', { value: '' })).body).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'value',
    });
    expect((await list()).map((entry) => entry.key)).not.toContain('plain');
  });

  it('refuses names objects inherit as keys, naming the field, and stores nothing', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype', 'valueof']) {
      const refused = await add({ key, value: '1' });
      expect({ key, status: refused.status, body: refused.body }).toMatchObject({
        key,
        status: 400,
        body: {
          code: 'VALIDATION_FAILED',
          field: 'key',
          message: 'key is a reserved name: choose another key',
        },
      });
      expect((await put(key, { value: '2' })).status).toBe(404);
    }
    expect(await add({ key: 'toString', value: '1' })).toMatchObject({ status: 400, body: { field: 'key' } });
    const keys = (await list()).map((entry) => entry.key);
    for (const key of ['__proto__', 'constructor', 'prototype', 'valueof', 'toString'])
      expect(keys).not.toContain(key);
    // A key of the admin's own that only resembles one is an ordinary key.
    expect((await add({ key: 'constructor.note', value: 'kept' })).status).toBe(201);
  });

  it('answers 404 for a key that is not set, or not a key at all, on PUT and DELETE; the key cannot change', async () => {
    expect(await put('never.set', { value: 'x' })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await remove('never.set')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await put('NOT%20A%20KEY', { value: 'x' })).status).toBe(404);
    expect((await remove('NOT%20A%20KEY')).status).toBe(404);

    await add({ key: 'renamed.not', value: 'a' });
    const renamed = await put('renamed.not', { key: 'renamed.yes', value: 'b' });
    expect(renamed).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'key' } });
    expect((await list()).find((entry) => entry.key === 'renamed.not')?.value).toBe('a');
    expect((await list()).map((entry) => entry.key)).not.toContain('renamed.yes');
  });

  it('refuses an invalid value for a known key with what it expects; stores a valid one in canonical form', async () => {
    const refusals: [string, string, string][] = [
      ['links.free_limit', 'two', 'links.free_limit must be a whole number from 0 to 1000000'],
      ['links.pro_monthly_limit', '-1', 'links.pro_monthly_limit must be a whole number from 0 to 1000000'],
      ['demo.links_per_visitor', '2.5', 'demo.links_per_visitor must be a whole number from 0 to 10000'],
      [
        'premium.slug_price_cents',
        '$25',
        'premium.slug_price_cents must be a whole number from 0 to 100000000',
      ],
      ['premium.max_owned_slugs', '1001', 'premium.max_owned_slugs must be a whole number from 0 to 1000'],
    ];
    for (const [key, value, message] of refusals) {
      expect(await add({ key, value })).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_FAILED', field: 'value', message },
      });
    }
    expect((await list()).map((entry) => entry.key)).not.toContain('links.free_limit');

    const price = await add({
      key: 'premium.slug_price_cents',
      value: ' 01999 ',
      description: 'Launch price',
    });
    expect(price).toMatchObject({ status: 201, body: { value: '1999' } });
    expect(t.api.runtime.settings.current().premiumSlugPriceCents).toBe(1999);
    expect(await put('premium.slug_price_cents', { value: 'free' })).toMatchObject({
      status: 400,
      body: {
        field: 'value',
        message: 'premium.slug_price_cents must be a whole number from 0 to 100000000',
      },
    });
    expect(t.api.runtime.settings.current().premiumSlugPriceCents).toBe(1999);

    await add({ key: 'premium.max_owned_slugs', value: '10' });
    expect(t.api.runtime.settings.current().maxOwnedPremiumSlugs).toBe(10);
    // Deleting a known key puts its default back in force.
    await remove('premium.slug_price_cents');
    await remove('premium.max_owned_slugs');
    expect(t.api.runtime.settings.current()).toMatchObject({
      premiumSlugPriceCents: 2500,
      maxOwnedPremiumSlugs: 3,
    });
  });

  it('keeps an unknown key as text', async () => {
    const note = await add({ key: 'banner.note', value: '  Maintenance on Sunday, 02:00 UTC  ' });
    expect(note).toMatchObject({ status: 201, body: { value: 'Maintenance on Sunday, 02:00 UTC' } });
  });
});

describe('config values applied without restart', () => {
  const allowance = async (client: HttpClient) =>
    (await client.get<User>('/api/auth/user')).body.linkAllowance;
  const create = (client: HttpClient, n: number) =>
    client.post<Link & ErrorBody>('/api/links', { originalUrl: `https://example.com/${n}`, title: null });

  it('a Free allowance of 2: the user JSON says 2, the third create is refused; deleting the key gives 5 back', async () => {
    const { client } = await signedUpClient(t.api, 'config.free');
    expect((await add({ key: 'links.free_limit', value: '2' })).status).toBe(201);
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 0, limit: 2, remaining: 2 });
    expect((await create(client, 1)).status).toBe(201);
    expect((await create(client, 2)).status).toBe(201);
    expect(await create(client, 3)).toMatchObject({
      status: 403,
      body: {
        code: 'SUBSCRIPTION_REQUIRED',
        message: 'Free accounts can hold 2 links at a time. Delete a link, or upgrade to Pro to create more.',
      },
    });
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 2, limit: 2, remaining: 0 });

    expect((await remove('links.free_limit')).status).toBe(200);
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 2, limit: 5, remaining: 3 });
    expect((await create(client, 3)).status).toBe(201);
  });

  it('lowering the Free allowance below what a user holds keeps their links; they cannot create more', async () => {
    const { client } = await signedUpClient(t.api, 'config.lowered');
    for (let n = 0; n < 4; n++) expect((await create(client, n)).status).toBe(201);
    await add({ key: 'links.free_limit', value: '2' });
    try {
      expect((await client.get<Link[]>('/api/links')).body).toHaveLength(4);
      expect(await allowance(client)).toEqual({ period: 'lifetime', used: 4, limit: 2, remaining: 0 });
      expect((await create(client, 4)).body.code).toBe('SUBSCRIPTION_REQUIRED');
      // Raising it again above what they hold makes room at once.
      await put('links.free_limit', { value: '6' });
      expect(await allowance(client)).toEqual({ period: 'lifetime', used: 4, limit: 6, remaining: 2 });
      expect((await create(client, 4)).status).toBe(201);
    } finally {
      await remove('links.free_limit');
    }
  });

  it('a Pro monthly allowance of 1: the second create of the month is refused with the new figure', async () => {
    const { client, userId } = await signedUpClient(t.api, 'config.pro');
    await t.api.runtime.accounts.setPlan(userId, 'monthly');
    await add({ key: 'links.pro_monthly_limit', value: '1' });
    try {
      expect(await allowance(client)).toEqual({ period: 'month', used: 0, limit: 1, remaining: 1 });
      expect((await create(client, 1)).status).toBe(201);
      expect(await create(client, 2)).toMatchObject({
        status: 403,
        body: {
          code: 'MONTHLY_LIMIT_REACHED',
          message:
            "Pro accounts can create 1 link a month, and this month's are used. More can be created from the 1st of next month (UTC).",
        },
      });
    } finally {
      await remove('links.pro_monthly_limit');
    }
    expect(await allowance(client)).toEqual({ period: 'month', used: 1, limit: 500, remaining: 499 });
  });

  it('a demo limit of 2 per visitor: the third demo link is refused; raising it lets the same visitor go on', async () => {
    const visitor = t.api.client();
    const from = { 'x-forwarded-for': '198.51.100.7' };
    const shorten = (n: number) =>
      visitor.post<DemoLink & ErrorBody>('/api/demo/shorten', { url: `https://example.com/demo/${n}` }, from);
    await add({ key: 'demo.links_per_visitor', value: '2' });
    try {
      expect((await shorten(1)).status).toBe(201);
      expect((await shorten(2)).status).toBe(201);
      expect(await shorten(3)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
      expect(await shorten(3)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
      await put('demo.links_per_visitor', { value: '3' });
      expect((await shorten(3)).status).toBe(201);
      expect((await shorten(4)).status).toBe(429);
    } finally {
      await remove('demo.links_per_visitor');
    }
    // Back at the default (DEMO_MAX_PER_VISITOR, 5): two more.
    expect((await shorten(4)).status).toBe(201);
    expect((await shorten(5)).status).toBe(201);
    expect((await shorten(6)).status).toBe(429);
  });
});
