import type { AuditPage, ErrorBody } from '@sniplink/contracts';
import type { AdminDoc, AdminDocsSeedResult } from '@sniplink/contracts/admin-docs/api';
import { signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';
import { starterDocs } from './starter-docs';

const ADMIN_EMAIL = 'docs.admin@example.com';
const t = testApiWithAdmin(ADMIN_EMAIL);

type Answer = AdminDoc & ErrorBody;
const list = async (query = '') => {
  const response = await t.admin.get<AdminDoc[]>(`/api/admin/docs${query}`);
  expect(response.status).toBe(200);
  return response.body;
};
const add = (body: unknown) => t.admin.post<Answer>('/api/admin/docs', body);
const put = (id: string, body: unknown) => t.admin.request<Answer>('PUT', `/api/admin/docs/${id}`, body);
const remove = (id: string) =>
  t.admin.request<ErrorBody & { ok: true; id: string }>('DELETE', `/api/admin/docs/${id}`);
const seed = () => t.admin.post<AdminDocsSeedResult>('/api/admin/docs/seed');

const escalation = {
  section: 'support',
  title: 'Escalating a billing dispute',
  content: '## Steps\n\n- Check the payment\n- Reply within a day',
  sortOrder: 5,
};

describe('admin docs', () => {
  it('adds a doc, lists it with who wrote it, changes it and deletes it', async () => {
    const created = await add(escalation);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      ...escalation,
      lastUpdatedBy: ADMIN_EMAIL,
      lastUpdatedById: t.adminId,
      updatedAt: expect.any(String),
    });
    expect(await list('?section=support')).toContainEqual(created.body);

    const changed = await put(created.body.id, {
      ...escalation,
      section: 'users',
      title: 'Escalating a dispute',
      sortOrder: 1,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ section: 'users', title: 'Escalating a dispute', sortOrder: 1 });
    expect((await list('?section=support')).map((doc) => doc.id)).not.toContain(created.body.id);
    expect(await list('?section=users')).toContainEqual(changed.body);

    expect(await remove(created.body.id)).toMatchObject({
      status: 200,
      body: { ok: true, id: created.body.id },
    });
    expect((await list()).map((doc) => doc.id)).not.toContain(created.body.id);
    expect(await remove(created.body.id)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await put(created.body.id, escalation)).status).toBe(404);
  });

  it('lists a section by sortOrder, then title; sortOrder is 0 when left out', async () => {
    const section = 'config';
    const titles = ['Zeta notes', 'Alpha notes', 'Middle notes'];
    const [zeta, alpha, middle] = [
      await add({ section, title: titles[0], content: 'z', sortOrder: 0 }),
      await add({ section, title: titles[1], content: 'a', sortOrder: 20 }),
      await add({ section, title: titles[2], content: 'm' }),
    ];
    expect(middle?.body.sortOrder).toBe(0);
    const order = (await list(`?section=${section}`))
      .filter((doc) => titles.includes(doc.title))
      .map((doc) => doc.id);
    expect(order).toEqual([middle?.body.id, zeta?.body.id, alpha?.body.id]);
  });

  it('refuses a bad doc with a 400 naming the field, and stores nothing', async () => {
    const before = await list();
    const cases: [unknown, string][] = [
      [{ ...escalation, section: 'billing' }, 'section'],
      [{ ...escalation, section: undefined }, 'section'],
      [{ ...escalation, title: '' }, 'title'],
      [{ ...escalation, title: ' \u200b ' }, 'title'],
      [{ ...escalation, title: 'x'.repeat(201) }, 'title'],
      [{ ...escalation, content: undefined }, 'content'],
      [{ ...escalation, content: '\n\n' }, 'content'],
      [{ ...escalation, sortOrder: 1.5 }, 'sortOrder'],
      [{ ...escalation, sortOrder: '3' }, 'sortOrder'],
      [{ ...escalation, sortOrder: -1 }, 'sortOrder'],
    ];
    for (const [body, field] of cases) {
      const response = await add(body);
      expect({ field, status: response.status, body: response.body }).toMatchObject({
        field,
        status: 400,
        body: { code: 'VALIDATION_FAILED', field },
      });
    }
    const section = await add({ ...escalation, section: 'billing' });
    expect(section.body.message).toBe(
      'section must be one of config, users, premium, seo, support, moderation',
    );
    expect((await add({ ...escalation, title: '' })).body.message).toBe('title is required');

    const { body: doc } = await add(escalation);
    const refused = await put(doc.id, { ...escalation, content: ' ' });
    expect(refused).toMatchObject({ status: 400, body: { field: 'content' } });
    expect((await list()).length).toBe(before.length + 1);
    expect((await list()).find((listed) => listed.id === doc.id)?.content).toBe(escalation.content);
    expect((await t.admin.get<ErrorBody>('/api/admin/docs?section=billing')).body).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'section',
    });
  });

  it('answers 404 for an id that names no doc, malformed or not', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await put(id, escalation)).status).toBe(404);
      expect((await remove(id)).status).toBe(404);
    }
  });
});

describe('seeding the starter docs', () => {
  it('adds docs in each of the six sections once; a second seed creates nothing and says so', async () => {
    const first = await seed();
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(starterDocs.length);
    expect(first.body).toEqual({
      message: `Seeded ${first.body.created} docs across the six sections.`,
      created: first.body.created,
      skipped: 0,
    });
    const docs = await list();
    for (const section of ['config', 'users', 'premium', 'seo', 'support', 'moderation']) {
      const inSection = docs.filter((doc) => doc.section === section);
      expect(inSection.length, section).toBeGreaterThanOrEqual(2);
      expect(inSection.every((doc) => doc.lastUpdatedBy === ADMIN_EMAIL)).toBe(true);
    }
    // Unfiltered, the starter docs read section by section in the console's tab order.
    const starterTitles = new Set(starterDocs.map((doc) => doc.title));
    const sections = docs.filter((doc) => starterTitles.has(doc.title)).map((doc) => doc.section);
    expect(sections.filter((section, i) => section !== sections[i - 1])).toEqual([
      'users',
      'support',
      'seo',
      'config',
      'moderation',
      'premium',
    ]);
    const suspending = docs.find((doc) => doc.title === 'Suspending a user');
    expect(suspending?.content).toContain('Unsuspend');

    const second = await seed();
    expect(second.body).toEqual({
      message: 'Documentation is already seeded: no docs were created.',
      created: 0,
      skipped: first.body.created,
    });
    expect((await list()).length).toBe(docs.length);

    // A starter doc an admin deleted stays deleted.
    expect((await remove(suspending?.id ?? '')).status).toBe(200);
    expect((await seed()).body.created).toBe(0);
    expect((await list()).map((doc) => doc.title)).not.toContain('Suspending a user');
  });
});

describe('who may use the Docs tab', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/admin/docs'],
    ['GET', '/api/admin/docs?section=users'],
    ['POST', '/api/admin/docs', escalation],
    ['PUT', '/api/admin/docs/00000000-0000-4000-8000-000000000000', escalation],
    ['DELETE', '/api/admin/docs/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/admin/docs/seed'],
  ];

  it('answers 401 signed out and 403 to a user who is not an admin, on every route, changing nothing', async () => {
    const before = await list();
    const { client: member } = await signedUpClient(t.api, 'docs.member');
    const signedOut = t.api.client();
    for (const [method, path, body] of routes) {
      const outside = await signedOut.request<ErrorBody>(method, path, body);
      expect({ method, path, status: outside.status }).toEqual({ method, path, status: 401 });
      const refused = await member.request<ErrorBody>(method, path, body);
      expect({ method, path, status: refused.status, code: refused.body.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'ADMIN_REQUIRED',
      });
    }
    expect(await list()).toEqual(before);
  });
});

describe('the audit history of the docs', () => {
  it('lists the creation, change and deletion of a doc with the acting admin and the title', async () => {
    const { body: doc } = await add({ ...escalation, title: 'Audited doc' });
    await put(doc.id, { ...escalation, title: 'Audited doc, changed' });
    await remove(doc.id);
    const history = await t.admin.get<AuditPage>(`/api/admin/audit?target=admindoc-${doc.id}`);
    expect(history.status).toBe(200);
    expect(
      history.body.entries.map((entry) => ({
        action: entry.action,
        actor: entry.actor.email,
        title: entry.details.title,
      })),
    ).toEqual([
      { action: 'AdminDocDeleted', actor: ADMIN_EMAIL, title: 'Audited doc, changed' },
      { action: 'AdminDocEdited', actor: ADMIN_EMAIL, title: 'Audited doc, changed' },
      { action: 'AdminDocCreated', actor: ADMIN_EMAIL, title: 'Audited doc' },
    ]);
    expect(history.body.entries[0]?.target).toEqual({
      type: 'admindoc',
      id: doc.id,
      streamId: `admindoc-${doc.id}`,
    });
  });

  it('records an edit that changes nothing as nothing', async () => {
    const { body: doc } = await add({ ...escalation, title: 'Unchanged doc' });
    expect((await put(doc.id, { ...escalation, title: 'Unchanged doc' })).status).toBe(200);
    const history = await t.admin.get<AuditPage>(`/api/admin/audit?target=${doc.id}`);
    expect(history.body.entries.map((entry) => entry.action)).toEqual(['AdminDocCreated']);
  });
});
