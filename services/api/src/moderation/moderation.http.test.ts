import type {
  AdminPremiumSlugsPage,
  Availability,
  ErrorBody,
  Link,
  PremiumSeedResult,
} from '@sniplink/contracts';
import type {
  CodeRejectionNotice,
  ProhibitedWord,
  ProtectedBrand,
  SlugApproval,
} from '@sniplink/contracts/moderation/api';
import { countedClicks, type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { mailsTo } from '@sniplink/test-support/outbox';
import { until } from '@sniplink/test-support/until';
import { beforeAll, describe, expect, it } from 'vitest';

const ADMIN_EMAIL = 'moderation.admin@example.com';
const UNKNOWN_ID = '01890000-0000-7000-8000-0000000000ff';
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const t = testApiWithAdmin(ADMIN_EMAIL);
let user: HttpClient;
let userEmail: string;
beforeAll(async () => {
  let userId: string;
  ({ client: user, userId } = await signedUpClient(t.api, 'moderation.user'));
  // Pro: the file's user creates more links than Free holds.
  await t.api.runtime.accounts.setPlan(userId, 'monthly');
  userEmail = (await user.get<{ email: string }>('/api/auth/user')).body.email;
});

let made = 0;
/** A word of letters only, new to this file's lists (digits would read as letters). */
const fresh = (stem: string) => {
  made += 1;
  return `${stem}${[...made.toString(26)].map((d) => String.fromCharCode(97 + Number.parseInt(d, 26))).join('')}`;
};

async function addWord(word: string, body: Record<string, unknown> = {}): Promise<ProhibitedWord> {
  const response = await t.admin.post<ProhibitedWord>('/api/admin/prohibited-words', { word, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function addBrand(brand: string, body: Record<string, unknown> = {}): Promise<ProtectedBrand> {
  const response = await t.admin.post<ProtectedBrand>('/api/admin/protected-brands', { brand, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const createLink = (client: HttpClient, shortCode?: string) =>
  client.post<Link & ErrorBody>('/api/links', { originalUrl: 'https://example.com/landing', shortCode });

async function createdLink(client: HttpClient, shortCode?: string): Promise<Link> {
  const response = await createLink(client, shortCode);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const visit = (code: string) => t.api.client().get(`/s/${code}`, { 'user-agent': BROWSER });

async function pendingApprovalFor(slug: string): Promise<SlugApproval> {
  const found = await until(
    async () => (await t.admin.get<SlugApproval[]>('/api/admin/slug-approvals')).body,
    (approvals) => approvals.some((approval) => approval.slug === slug),
    5_000,
  );
  const approval = found.find((one) => one.slug === slug);
  if (!approval) throw new Error(`no pending approval for ${slug}`);
  return approval;
}

describe('the lists', () => {
  it('adds a word with the defaults offensive and medium, and a brand with tech and requiresApproval', async () => {
    const word = await addWord('  Scamword  ');
    expect(word).toEqual({
      id: expect.any(String),
      word: 'Scamword',
      category: 'offensive',
      severity: 'medium',
      isActive: true,
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    const brand = await addBrand('Acmecorp');
    expect(brand).toMatchObject({
      brand: 'Acmecorp',
      category: 'tech',
      requiresApproval: true,
      isActive: true,
    });
    const words = (await t.admin.get<ProhibitedWord[]>('/api/admin/prohibited-words')).body;
    expect(words.map((one) => one.id)).toContain(word.id);
    const brands = (await t.admin.get<ProtectedBrand[]>('/api/admin/protected-brands')).body;
    expect(brands.map((one) => one.id)).toContain(brand.id);
  });

  it('refuses the same word or brand again, whatever its case or disguise, with a 409 that says so', async () => {
    const word = fresh('dupe');
    await addWord(word);
    for (const again of [word.toUpperCase(), word.replace('e', '3')]) {
      const response = await t.admin.post<ErrorBody>('/api/admin/prohibited-words', { word: again });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({
        code: 'CONFLICT',
        message: 'This word is already in the prohibited list',
      });
    }
    const brand = fresh('Dupebrand');
    await addBrand(brand);
    const response = await t.admin.post<ErrorBody>('/api/admin/protected-brands', {
      brand: brand.toLowerCase(),
    });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('This brand is already in the protected list');
  });

  it('refuses a blank word or brand, or an unknown category, naming the field', async () => {
    const blank = await t.admin.post<ErrorBody>('/api/admin/prohibited-words', { word: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.field).toBe('word');
    const noName = await t.admin.post<ErrorBody>('/api/admin/protected-brands', {});
    expect(noName.status).toBe(400);
    expect(noName.body.field).toBe('brand');
    const category = await t.admin.post<ErrorBody>('/api/admin/prohibited-words', {
      word: 'x',
      category: 'rude',
    });
    expect(category.status).toBe(400);
    const symbols = await t.admin.post<ErrorBody>('/api/admin/prohibited-words', { word: '!!!' });
    expect(symbols.status).toBe(400);
  });

  it('switches and deletes entries; an unknown or malformed id is a 404', async () => {
    const word = await addWord(fresh('switch'));
    const off = await t.admin.patch<ProhibitedWord>(`/api/admin/prohibited-words/${word.id}`, {
      isActive: false,
    });
    expect(off.body.isActive).toBe(false);
    const deleted = await t.admin.request('DELETE', `/api/admin/prohibited-words/${word.id}`);
    expect(deleted.body).toEqual({ id: word.id, deleted: true });
    for (const id of [word.id, UNKNOWN_ID, 'nope']) {
      expect((await t.admin.patch(`/api/admin/prohibited-words/${id}`, { isActive: true })).status).toBe(404);
      expect((await t.admin.request('DELETE', `/api/admin/protected-brands/${id}`)).status).toBe(404);
    }
    // Deleted, the word may be listed again.
    await addWord(word.word);
  });

  it('records each change with the acting admin in the audit history', async () => {
    const word = await addWord(fresh('audited'));
    const audit = await t.admin.get<{
      entries: Array<{ action: string; actor: { id?: string }; details: unknown }>;
    }>('/api/admin/audit');
    const entry = audit.body.entries.find((one) => one.action === 'ProhibitedWordAdded');
    expect(entry?.actor).toMatchObject({ id: t.adminId });
    expect(entry?.details).toMatchObject({ word: word.word });
  });
});

describe('a claim of a code', () => {
  it('is refused with PROHIBITED_CODE on create, on edit and on a premium slug, without repeating the word', async () => {
    const word = fresh('vile');
    await addWord(word);
    const disguised = `my-${word.replace('i', '1').replace('e', '3')}`;
    const create = await createLink(user, disguised);
    expect(create.status).toBe(400);
    expect(create.body).toMatchObject({ code: 'PROHIBITED_CODE', field: 'shortCode' });
    expect(create.body.message).not.toContain(word);

    const link = await createdLink(user);
    const edit = await user.patch<ErrorBody>(`/api/links/${link.id}`, { shortCode: `${word}-x` });
    expect(edit.status).toBe(400);
    expect(edit.body.code).toBe('PROHIBITED_CODE');

    const premium = await t.admin.post<ErrorBody>('/api/admin/premium-slugs', {
      slug: word,
      category: 'common-words',
    });
    expect(premium.status).toBe(400);
    expect(premium.body).toMatchObject({ code: 'PROHIBITED_CODE', field: 'slug' });

    const availability = await user.get<Availability>(`/api/links/check-availability/${word}x`);
    expect(availability.body).toEqual({ available: false, message: 'This short code is not allowed' });
  });

  it('ignores inactive words, and applies a change to the next claim', async () => {
    const word = await addWord(fresh('toggled'));
    await t.admin.patch(`/api/admin/prohibited-words/${word.id}`, { isActive: false });
    await createdLink(user, `${word.word}a`);
    await t.admin.patch(`/api/admin/prohibited-words/${word.id}`, { isActive: true });
    expect((await createLink(user, `${word.word}b`)).body.code).toBe('PROHIBITED_CODE');
  });

  it('changes nothing already claimed when a word is added later', async () => {
    const word = fresh('later');
    const before = await createdLink(user, `${word}-ok`);
    await addWord(word);
    expect((await visit(before.shortCode)).status).toBe(302);
  });

  it('refuses a brand without requiresApproval as PROTECTED_BRAND, and lets near misses through', async () => {
    await addBrand('Zq', { requiresApproval: false });
    const refused = await createLink(user, 'zq-shop');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('PROTECTED_BRAND');
    // A short brand only as a whole part: an ordinary word that merely contains it is fine.
    await createdLink(user, fresh('azqe'));
  });

  it('refuses any brand in a premium slug, and a seed skips built-in slugs the lists refuse', async () => {
    await addBrand('Discount', { requiresApproval: true });
    const premium = await t.admin.post<ErrorBody>('/api/admin/premium-slugs', {
      slug: 'discount-now',
      category: 'commerce',
    });
    expect(premium.body.code).toBe('PROTECTED_BRAND');
    await addWord('luxury');
    const seeded = await t.admin.post<PremiumSeedResult>('/api/admin/premium-slugs/seed');
    expect(seeded.status).toBe(200);
    expect(seeded.body.skipped).toBeGreaterThanOrEqual(1);
    const catalogue = await t.admin.get<AdminPremiumSlugsPage>('/api/admin/premium-slugs?search=luxury');
    expect(catalogue.body.slugs.map((slug) => slug.slug)).not.toContain('luxury');
    expect(catalogue.body.total).toBe(0);
  });
});

describe('a code that contains a brand asking for approval', () => {
  it('is created pending: the dashboard marks it, /s/ answers 423 and counts no click', async () => {
    const brand = fresh('Pendbrand');
    await addBrand(brand);
    const link = await createdLink(user, `${brand.toLowerCase()}-deals`);
    expect(link.pendingApproval).toBe(true);
    const listed = (await user.get<Link[]>('/api/links')).body.find((one) => one.id === link.id);
    expect(listed?.pendingApproval).toBe(true);

    const page = await visit(link.shortCode);
    expect(page.status).toBe(423);
    expect(page.headers.get('location')).toBeNull();
    expect(page.text).toContain('pending review');
    expect(await countedClicks(t.api, link.id)).toEqual({ clicks: 0, botClicks: 0 });

    const approval = await pendingApprovalFor(link.shortCode);
    expect(approval).toMatchObject({ status: 'pending', matchedBrand: brand, createdAt: expect.any(String) });
    const user_ = await user.get<{ id: string }>('/api/auth/user');
    expect(approval.userId).toBe(user_.body.id);
  });

  it('redirects once approved, and only a pending approval may be decided', async () => {
    const brand = fresh('Approvebrand');
    await addBrand(brand);
    const link = await createdLink(user, `${brand}-shop`);
    expect((await visit(link.shortCode)).status).toBe(423);
    const approval = await pendingApprovalFor(link.shortCode);
    const approved = await t.admin.patch<SlugApproval>(`/api/admin/slug-approvals/${approval.id}/approve`, {
      notes: 'their own shop',
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', notes: 'their own shop' });
    const redirect = await visit(link.shortCode);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/landing');
    expect(
      (await user.get<Link[]>('/api/links')).body.find((one) => one.id === link.id)?.pendingApproval,
    ).toBe(false);

    expect((await t.admin.patch(`/api/admin/slug-approvals/${approval.id}/reject`, {})).status).toBe(409);
    expect((await t.admin.patch(`/api/admin/slug-approvals/${UNKNOWN_ID}/approve`, {})).status).toBe(404);
    const decided = (await t.admin.get<SlugApproval[]>('/api/admin/slug-approvals?status=approved')).body;
    expect(decided.map((one) => one.id)).toContain(approval.id);
    const pending = (await t.admin.get<SlugApproval[]>('/api/admin/slug-approvals')).body;
    expect(pending.map((one) => one.id)).not.toContain(approval.id);
  });

  it('on an edit too: the link waits on its new code', async () => {
    const brand = fresh('Editbrand');
    await addBrand(brand);
    const link = await createdLink(user);
    const edited = await user.patch<Link>(`/api/links/${link.id}`, { shortCode: `${brand}-x` });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.pendingApproval).toBe(true);
    expect((await visit(edited.body.shortCode)).status).toBe(423);
    await pendingApprovalFor(edited.body.shortCode);
  });

  it('rejected: the link gets a new code, the old code is free for someone else, the owner is told why', async () => {
    const brand = fresh('Rejectbrand');
    await addBrand(brand);
    const code = `${brand}-promo`;
    const link = await createdLink(user, code);
    const approval = await pendingApprovalFor(code);
    const rejected = await t.admin.patch<SlugApproval>(`/api/admin/slug-approvals/${approval.id}/reject`, {
      reason: 'Brand protection violation',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', reason: 'Brand protection violation' });

    const moved = (await user.get<Link[]>('/api/links')).body.find((one) => one.id === link.id);
    expect(moved?.shortCode).toMatch(/^[a-z0-9]{7}$/);
    expect(moved?.pendingApproval).toBe(false);
    expect((await visit(moved?.shortCode ?? '')).status).toBe(302);
    expect((await visit(code)).status).toBe(404);

    const notices = await user.get<CodeRejectionNotice[]>('/api/moderation/notices');
    expect(notices.body).toContainEqual(
      expect.objectContaining({
        rejectedCode: code,
        newCode: moved?.shortCode,
        reason: 'Brand protection violation',
      }),
    );
    const mails = await until(
      () => mailsTo(t.api.config.dataDir, userEmail),
      (found) => found.some((mail) => mail.includes(code)),
      5_000,
    );
    const mail = mails.find((one) => one.includes(code)) ?? '';
    expect(mail).toContain('Brand protection violation');
    expect(mail).toContain(moved?.shortCode ?? '');

    // Free again: another account may take it (and it waits for approval there too).
    const { client: other } = await signedUpClient(t.api, 'moderation.other');
    expect((await createdLink(other, code)).pendingApproval).toBe(true);
  });
});
