import type { AuditPage, ErrorBody } from '@sniplink/contracts';
import type { PageCopy, PageCopyVersion, PublicPageCopy } from '@sniplink/contracts/content/api';
import { signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';

const ADMIN_EMAIL = 'content.admin@example.com';
const t = testApiWithAdmin(ADMIN_EMAIL);

type Answer = PageCopy & ErrorBody;
const save = (page: string, body: unknown) =>
  t.admin.request<Answer>('PUT', `/api/admin/content/${page}`, body);
const publish = (page: string) => t.admin.post<Answer>(`/api/admin/content/${page}/publish`);
const draftOf = async (page: string) => (await t.admin.get<PageCopy>(`/api/admin/content/${page}`)).body;
const versionsOf = async (page: string) =>
  (await t.admin.get<PageCopyVersion[]>(`/api/admin/content/${page}/versions`)).body;
/** What a signed-out visitor's page reads. */
const publicCopy = (page: string) => t.api.client().get<PublicPageCopy & ErrorBody>(`/api/content/${page}`);

describe('page copy drafts and publishing', () => {
  it('lists the five pages, empty and unpublished before anything is saved', async () => {
    const list = await t.admin.get<PageCopy[]>('/api/admin/content');
    expect(list.status).toBe(200);
    expect(list.body.map((page) => page.page)).toEqual(['privacy', 'terms', 'about', 'contact', 'help']);
    expect(list.body.find((page) => page.page === 'help')).toEqual({
      page: 'help',
      title: '',
      content: '',
      isPublished: false,
      version: 0,
      publishedAt: null,
      updatedAt: null,
    });
    expect((await publicCopy('help')).body).toEqual({ page: 'help', published: null });
  });

  it('keeps a saved draft off the public page until it is published', async () => {
    const saved = await save('privacy', {
      title: '  Privacy notice ',
      content: '## Cookies\n\nOne: **sid**.',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      page: 'privacy',
      title: 'Privacy notice',
      content: '## Cookies\n\nOne: **sid**.',
      isPublished: false,
      version: 0,
      publishedAt: null,
      updatedAt: expect.any(String),
    });
    expect(await draftOf('privacy')).toEqual(saved.body);
    expect((await publicCopy('privacy')).body).toEqual({ page: 'privacy', published: null });

    const published = await publish('privacy');
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ isPublished: true, version: 1, publishedAt: expect.any(String) });
    const visible = await publicCopy('privacy');
    expect(visible.status).toBe(200);
    expect(visible.body).toEqual({
      page: 'privacy',
      published: {
        version: 1,
        title: 'Privacy notice',
        content: '## Cookies\n\nOne: **sid**.',
        publishedAt: published.body.publishedAt,
      },
    });

    // An edit is a draft again: the public page keeps version 1 until the next publish.
    const edited = await save('privacy', {
      title: 'Privacy notice',
      content: 'Shorter.',
      isPublished: false,
    });
    expect(edited.body).toMatchObject({ isPublished: false, version: 1, content: 'Shorter.' });
    expect((await publicCopy('privacy')).body.published).toMatchObject({ version: 1 });
    expect((await publish('privacy')).body).toMatchObject({ isPublished: true, version: 2 });
    expect((await publicCopy('privacy')).body.published).toMatchObject({ version: 2, content: 'Shorter.' });
  });

  it('keeps every published version readable, newest first', async () => {
    await save('about', { title: 'About', content: 'First.' });
    await publish('about');
    await save('about', { title: 'About us', content: 'Second.' });
    await publish('about');
    await save('about', { title: 'About us', content: 'Third, not yet published.' });
    const versions = await versionsOf('about');
    expect(versions.map(({ version, title, content }) => ({ version, title, content }))).toEqual([
      { version: 2, title: 'About us', content: 'Second.' },
      { version: 1, title: 'About', content: 'First.' },
    ]);
    expect((await draftOf('about')).content).toBe('Third, not yet published.');
  });

  it('publishes only a draft with a title and content, and only once', async () => {
    const nothing = await publish('contact');
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe('The draft has no title: save a title before publishing');

    await save('contact', { title: 'Contact', content: '   \n' });
    const noContent = await publish('contact');
    expect(noContent.status).toBe(400);
    expect(noContent.body.message).toBe('The draft has no content: save some copy before publishing');
    await save('contact', { title: ' ', content: 'Write to us.' });
    expect((await publish('contact')).status).toBe(400);

    await save('contact', { title: 'Contact', content: 'Write to us.' });
    expect((await publish('contact')).status).toBe(200);
    const again = await publish('contact');
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('already published as version 1');
    expect(await versionsOf('contact')).toHaveLength(1);
  });

  it('refuses an unknown page, a missing field, an over-long title and publishing through a save', async () => {
    const unknown = await save('pricing', { title: 'x', content: 'y' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('privacy, terms, about, contact, help');
    expect((await publicCopy('pricing')).status).toBe(400);
    expect((await save('terms', { title: 'Terms' })).status).toBe(400);
    const long = await save('terms', { title: 'x'.repeat(201), content: 'y' });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('at most 200 characters');
    const sneaky = await save('terms', { title: 'Terms', content: 'y', isPublished: true });
    expect(sneaky.status).toBe(400);
    expect(sneaky.body.message).toContain('saving keeps a draft');
    expect((await draftOf('terms')).updatedAt).toBeNull();
  });

  it('records each save and publish in the audit history under the acting admin', async () => {
    await save('help', { title: 'Help', content: 'Ask support.' });
    await publish('help');
    const history = await t.admin.get<AuditPage>('/api/admin/audit?target=page-help');
    expect(history.body.entries.map((entry) => [entry.action, entry.actor.email])).toEqual([
      ['PageCopyPublished', ADMIN_EMAIL],
      ['PageCopyDraftSaved', ADMIN_EMAIL],
    ]);
    expect(history.body.entries[0]?.details).toMatchObject({ page: 'help', version: 1, title: 'Help' });
  });
});

describe('who may call what', () => {
  it('keeps the editor to admins: 401 signed out, 403 for a user; the published copy is public', async () => {
    const visitor = t.api.client();
    const { client: user } = await signedUpClient(t.api, 'content.user');
    const calls = [
      ['GET', '/api/admin/content', undefined],
      ['GET', '/api/admin/content/terms', undefined],
      ['PUT', '/api/admin/content/terms', { title: 'Mine', content: 'Now.' }],
      ['POST', '/api/admin/content/terms/publish', undefined],
      ['GET', '/api/admin/content/terms/versions', undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      expect((await visitor.request(method, path, body)).status, `${method} ${path}`).toBe(401);
      expect((await user.request(method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    expect((await draftOf('terms')).title).toBe('');
    expect((await visitor.get('/api/content/terms')).status).toBe(200);
  });
});
