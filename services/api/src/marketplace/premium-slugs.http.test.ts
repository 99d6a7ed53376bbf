import type {
  AdminPremiumSlugsPage,
  Availability,
  ErrorBody,
  Link,
  MarketplaceSlug,
  PremiumSeedResult,
  PremiumSlug,
} from '@sniplink/contracts';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { addedPremiumSlug, uniqueSlug } from '@sniplink/test-support/premium';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from './seed-catalogue';

const ADMIN_EMAIL = 'premium.admin@example.com';
const UNKNOWN_ID = '01890000-0000-7000-8000-0000000000ff';

const t = testApiWithAdmin(ADMIN_EMAIL);
let user: HttpClient;
beforeAll(async () => {
  ({ client: user } = await signedUpClient(t.api, 'premium.user'));
});

const addSlug = (body: Record<string, unknown>) =>
  t.admin.post<PremiumSlug & ErrorBody>('/api/admin/premium-slugs', body);
const added = (body: Record<string, unknown>) => addedPremiumSlug(t.admin, body);
const listed = async (query = '') => {
  const response = await t.admin.get<AdminPremiumSlugsPage>(`/api/admin/premium-slugs${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
};

describe('adding a premium slug', () => {
  it('answers 201 with the slug trimmed and lower-cased and the defaults: $25, common-words, standard, available', async () => {
    const name = uniqueSlug('deal');
    const slug = await added({ slug: `  ${name.toUpperCase()} ` });
    expect(slug).toEqual({
      id: expect.any(String),
      slug: name,
      category: 'common-words',
      price: 2500,
      stripePriceId: null,
      tier: 'standard',
      isAvailable: true,
      isListed: true,
      ownerId: null,
      createdAt: expect.any(String),
    });
  });

  it('keeps what the admin chose, and a blank Stripe price id is none', async () => {
    const slug = await added({
      slug: uniqueSlug('vip'),
      category: 'lifestyle-status',
      tier: 'ultra',
      price: 9900,
      stripePriceId: ' ',
      isAvailable: false,
    });
    expect(slug).toMatchObject({
      category: 'lifestyle-status',
      tier: 'ultra',
      price: 9900,
      stripePriceId: null,
    });
    expect(slug).toMatchObject({ isAvailable: false, isListed: false, ownerId: null });
  });

  it('takes a single character', async () => {
    expect((await added({ slug: 'k' })).slug).toBe('k');
  });

  it('refuses a blank, too long, malformed or reserved slug, and a negative price, naming the field', async () => {
    for (const slug of ['', '   ', 'x'.repeat(21), 'two words', 'dot.ted', 'admin']) {
      const response = await addSlug({ slug });
      expect(response.status, slug).toBe(400);
      expect(response.body.field).toBe('slug');
    }
    const negative = await addSlug({ slug: uniqueSlug('cheap'), price: -1 });
    expect(negative.status).toBe(400);
    expect(negative.text).toContain('price');
  });

  it('refuses a slug already in the catalogue, whatever its case: 409', async () => {
    const name = uniqueSlug('twice');
    await added({ slug: name });
    const again = await addSlug({ slug: name.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'CONFLICT',
      message: 'This slug is already in the premium catalogue',
    });
  });
});

describe('one namespace for links and premium slugs', () => {
  it('refuses a slug whose code a link holds, whatever its case: 409 with a clear message', async () => {
    const code = uniqueSlug('linked');
    const link = await user.post<Link>('/api/links', {
      originalUrl: 'https://example.com/a',
      shortCode: code,
    });
    expect(link.status, link.text).toBe(201);
    const response = await addSlug({ slug: code.toUpperCase() });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('A link holds this short code, so it cannot be a premium slug');
  });

  it("keeps links off a slug's code on create, edit and the availability check, whatever its case", async () => {
    const slug = await added({ slug: uniqueSlug('prem') });
    const create = await user.post<ErrorBody>('/api/links', {
      originalUrl: 'https://example.com/b',
      shortCode: slug.slug.toUpperCase(),
    });
    expect(create.status).toBe(409);
    expect(create.body.code).toBe('SHORT_CODE_TAKEN');

    const link = await user.post<Link>('/api/links', { originalUrl: 'https://example.com/c' });
    const edit = await user.patch<ErrorBody>(`/api/links/${link.body.id}`, { shortCode: slug.slug });
    expect(edit.status).toBe(409);

    const check = await user.get<Availability>(`/api/links/check-availability/${slug.slug.toUpperCase()}`);
    expect(check.body).toEqual({ available: false, message: 'This short code is reserved' });
  });

  it('frees the code when the slug is deleted: a link may take it then', async () => {
    const slug = await added({ slug: uniqueSlug('freed') });
    const deleted = await t.admin.request('DELETE', `/api/admin/premium-slugs/${slug.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: slug.id, deleted: true });
    const link = await user.post<Link>('/api/links', {
      originalUrl: 'https://example.com/d',
      shortCode: slug.slug,
    });
    expect(link.status, link.text).toBe(201);
  });
});

describe('editing and deleting', () => {
  it('changes only the fields sent', async () => {
    const slug = await added({ slug: uniqueSlug('edit') });
    const response = await t.admin.patch<PremiumSlug>(`/api/admin/premium-slugs/${slug.id}`, {
      price: 4900,
      tier: 'premium',
      isAvailable: false,
      stripePriceId: 'price_123',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      ...slug,
      price: 4900,
      tier: 'premium',
      isAvailable: false,
      isListed: false,
      stripePriceId: 'price_123',
    });
    const negative = await t.admin.patch(`/api/admin/premium-slugs/${slug.id}`, { price: -5 });
    expect(negative.status).toBe(400);
  });

  it('answers 404 to an unknown, malformed or deleted id', async () => {
    const slug = await added({ slug: uniqueSlug('gone') });
    await t.admin.request('DELETE', `/api/admin/premium-slugs/${slug.id}`);
    for (const id of [UNKNOWN_ID, 'not-an-id', slug.id]) {
      expect((await t.admin.patch(`/api/admin/premium-slugs/${id}`, { price: 1 })).status).toBe(404);
      expect((await t.admin.request('DELETE', `/api/admin/premium-slugs/${id}`)).status).toBe(404);
    }
  });
});

describe('the Premium tab list', () => {
  it('filters by search, category, tier and availability, 25 a page, with the four cards', async () => {
    const tag = uniqueSlug('pg').slice(0, 12);
    for (let i = 0; i < 27; i++) {
      await added({
        slug: `${tag}-${String(i).padStart(2, '0')}`,
        category: i % 2 === 0 ? 'tech-terms' : 'commerce',
        tier: i < 3 ? 'ultra' : 'standard',
        isAvailable: i !== 26,
      });
    }
    const first = await listed(`?search=${tag.toUpperCase()}`);
    expect(first.total).toBe(27);
    expect(first.slugs).toHaveLength(25);
    expect(first.slugs[0]?.slug).toBe(`${tag}-00`);
    const second = await listed(`?search=${tag}&page=2`);
    expect(second.slugs.map((s) => s.slug)).toEqual([`${tag}-25`, `${tag}-26`]);
    expect((await listed(`?search=${tag}&category=commerce`)).total).toBe(13);
    expect((await listed(`?search=${tag}&tier=ultra`)).total).toBe(3);
    expect((await listed(`?search=${tag}&availability=owned`)).slugs.map((s) => s.slug)).toEqual([
      `${tag}-26`,
    ]);
    expect((await listed(`?search=${tag}&availability=available&tier=ultra&category=tech-terms`)).total).toBe(
      2,
    );

    const { stats } = first;
    const everything = await listed('?page=1');
    expect(stats.total).toBe(everything.total);
    expect(stats.available).toBe((await listed('?availability=available')).total);
    expect(stats.owned).toBe(0); // nobody owns a slug until purchases exist
    expect(stats.revenue).toBe(0);
  });

  it('refuses an unknown category or a page below 1: 400', async () => {
    expect((await t.admin.get('/api/admin/premium-slugs?category=misc')).status).toBe(400);
    expect((await t.admin.get('/api/admin/premium-slugs?page=0')).status).toBe(400);
  });
});

describe('seeding', () => {
  it('adds the built-in catalogue once; a code already taken is skipped; a second seed creates none', async () => {
    // One seed slug taken by a link, one already in the catalogue.
    const [byLink, inCatalogue] = seedCatalogue.filter((entry) => entry.slug.length > 3);
    if (!byLink || !inCatalogue) throw new Error('the seed list is too short');
    await user.post('/api/links', { originalUrl: 'https://example.com/e', shortCode: byLink.slug });
    await addSlug({ slug: inCatalogue.slug });

    const first = await t.admin.post<PremiumSeedResult>('/api/admin/premium-slugs/seed', {});
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ created: seedCatalogue.length - 2, skipped: 2 });
    const second = await t.admin.post<PremiumSeedResult>('/api/admin/premium-slugs/seed', {});
    expect(second.body).toEqual({ created: 0, skipped: seedCatalogue.length });
    expect(new Set(seedCatalogue.map((entry) => entry.category)).size).toBe(7);
  });
});

describe('the marketplace', () => {
  it('lists the slugs for sale to anyone, without what only admins see', async () => {
    const forSale = await added({ slug: uniqueSlug('sale'), category: 'commerce', price: 1234 });
    const withdrawn = await added({ slug: uniqueSlug('off'), isAvailable: false });
    const response = await t.api.client().get<MarketplaceSlug[]>('/api/marketplace/premium-slugs');
    expect(response.status).toBe(200);
    expect(response.body).toContainEqual({
      id: forSale.id,
      slug: forSale.slug,
      category: 'commerce',
      price: 1234,
      tier: 'standard',
    });
    expect(response.body.some((slug) => slug.id === withdrawn.id)).toBe(false);
  });
});

describe('the audit history', () => {
  it('records each change with the acting admin', async () => {
    const slug = await added({ slug: uniqueSlug('audit') });
    await t.admin.patch(`/api/admin/premium-slugs/${slug.id}`, { price: 100 });
    const history = await t.admin.get(`/api/admin/audit?target=premiumslug-${slug.id}`);
    expect(history.status, history.text).toBe(200);
    expect(history.text).toContain('PremiumSlugAdded');
    expect(history.text).toContain('PremiumSlugEdited');
  });
});
