import type { Announcement, UserAnnouncement } from '@sniplink/contracts';
import { withReadModels } from '@sniplink/projections';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';

const ADMIN_EMAIL = 'announce.admin@example.com';
const UNKNOWN_ID = '01890000-0000-7000-8000-0000000000ff';

const t = testApiWithAdmin(ADMIN_EMAIL);

/** Publishes as the admin; the body's defaults are the API's. */
async function publish(body: Record<string, unknown>): Promise<Announcement> {
  const response = await t.admin.post<Announcement>('/api/admin/announcements', {
    message: 'Links keep redirecting.',
    ...body,
  });
  expect(response.status).toBe(201);
  return response.body;
}

async function shownTo(client: HttpClient): Promise<UserAnnouncement[]> {
  const response = await client.get<UserAnnouncement[]>('/api/announcements');
  expect(response.status).toBe(200);
  return response.body;
}

/** The titles among `ours` that the client is shown, in the order shown. */
const titlesShown = async (client: HttpClient, ours: Announcement[]) =>
  (await shownTo(client))
    .filter((shown) => ours.some((one) => one.id === shown.id))
    .map((shown) => shown.title);

const proClient = async (label: string) => {
  const pro = await signedUpClient(t.api, label);
  await t.api.runtime.accounts.setPlan(pro.userId, 'monthly');
  return pro;
};

describe('publishing an announcement', () => {
  it('answers 201 with the defaults: type info, audience all, active', async () => {
    const response = await t.admin.post<Announcement>('/api/admin/announcements', {
      title: '  Welcome  ',
      message: 'Hello there.',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      title: 'Welcome',
      message: 'Hello there.',
      type: 'info',
      targetAudience: 'all',
      isActive: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it.each([
    [{ message: 'm' }, 'title', 'title is required'],
    [{ title: '   ', message: 'm' }, 'title', 'title must not be blank'],
    [{ title: 'x'.repeat(121), message: 'm' }, 'title', 'title must be at most 120 characters'],
    [{ title: 't' }, 'message', 'message is required'],
    [{ title: 't', message: '\n \t' }, 'message', 'message must not be blank'],
    [{ title: '\u200B', message: 'm' }, 'title', 'title must not be blank'],
    [{ title: 't', message: '\u2060\uFEFF\u00A0\u3000' }, 'message', 'message must not be blank'],
    [{ title: 't', message: 'x'.repeat(2_001) }, 'message', 'message must be at most 2,000 characters'],
    [{ title: 't', message: 'm', type: 'danger' }, 'type', undefined],
    [{ title: 't', message: 'm', targetAudience: 'pro' }, 'targetAudience', undefined],
    [{ title: 't', message: 'm', isActive: 'yes' }, 'isActive', undefined],
  ])('refuses %j with a 400 naming %s', async (body, field, message) => {
    const response = await t.admin.post<{ code: string; field: string; message: string }>(
      '/api/admin/announcements',
      body,
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', field });
    if (message) expect(response.body.message).toBe(message);
  });

  it('takes a title of 120 and a message of 2,000 characters', async () => {
    const published = await publish({ title: 'x'.repeat(120), message: 'y'.repeat(2_000) });
    expect([published.title.length, published.message.length]).toEqual([120, 2_000]);
  });

  it('lists every announcement, newest first, and records the acting admin in each event', async () => {
    const older = await publish({ title: 'Older' });
    const newer = await publish({ title: 'Newer', type: 'error', targetAudience: 'admin', isActive: false });
    const listed = await t.admin.get<Announcement[]>('/api/admin/announcements');
    expect(listed.status).toBe(200);
    const ids = listed.body.map((announcement) => announcement.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(listed.body.find((announcement) => announcement.id === newer.id)).toEqual(newer);

    await t.admin.patch(`/api/admin/announcements/${older.id}`, { isActive: false });
    const events = await t.api.runtime.eventStore.readStream(`announcement-${older.id}`);
    expect(events.map((event) => [event.type, event.actorId])).toEqual([
      ['AnnouncementPublished', t.adminId],
      ['AnnouncementSwitchedOff', t.adminId],
    ]);
    // Both are in the audit history, as the admin's, on the announcement.
    const audit = await t.admin.get<{ entries: Array<{ action: string; actor: { id: string } }> }>(
      `/api/admin/audit?target=announcement-${older.id}`,
    );
    expect(audit.body.entries.map((entry) => [entry.action, entry.actor.id])).toEqual([
      ['AnnouncementSwitchedOff', t.adminId],
      ['AnnouncementPublished', t.adminId],
    ]);
  });

  it('keeps a message as the text it is: markup is stored and answered verbatim', async () => {
    const markup = '<img src=x onerror=alert(1)> & <b>bold</b>';
    const published = await publish({ title: '<script>alert(1)</script>', message: markup });
    const { client } = await signedUpClient(t.api, 'announce.markup');
    const shown = (await shownTo(client)).find((announcement) => announcement.id === published.id);
    expect(shown).toMatchObject({ title: '<script>alert(1)</script>', message: markup });
  });
});

describe('who sees which announcement', () => {
  it('shows `all` to everyone, `free` to users who are not Pro, `paid` to Pro users, `admin` to admins', async () => {
    const ours = [
      await publish({ title: 'For all', targetAudience: 'all' }),
      await publish({ title: 'For free', targetAudience: 'free' }),
      await publish({ title: 'For paid', targetAudience: 'paid' }),
      await publish({ title: 'For admins', targetAudience: 'admin' }),
    ];
    const { client: free } = await signedUpClient(t.api, 'announce.free');
    const { client: pro } = await proClient('announce.pro');
    // Newest first.
    expect(await titlesShown(free, ours)).toEqual(['For free', 'For all']);
    expect(await titlesShown(pro, ours)).toEqual(['For paid', 'For all']);
    // The admin is on Free: admins' and Free users' announcements.
    expect(await titlesShown(t.admin, ours)).toEqual(['For admins', 'For free', 'For all']);
  });

  it('shows a user only the fields meant for them', async () => {
    const published = await publish({ title: 'Fields', type: 'success' });
    const { client } = await signedUpClient(t.api, 'announce.fields');
    const shown = (await shownTo(client)).find((announcement) => announcement.id === published.id);
    expect(shown).toEqual({
      id: published.id,
      title: 'Fields',
      message: published.message,
      type: 'success',
      createdAt: published.createdAt,
    });
  });

  it('hides an inactive one from everyone; switched off hides it, switched on shows it again', async () => {
    const draft = await publish({ title: 'Published off', isActive: false });
    const live = await publish({ title: 'Live' });
    const ours = [draft, live];
    const { client: free } = await signedUpClient(t.api, 'announce.inactive');
    const { client: pro } = await proClient('announce.inactive-pro');
    expect(await titlesShown(free, ours)).toEqual(['Live']);

    const off = await t.admin.patch<Announcement>(`/api/admin/announcements/${live.id}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...live, isActive: false });
    for (const client of [free, pro, t.admin]) expect(await titlesShown(client, ours)).toEqual([]);
    // Off again: nothing changes.
    expect((await t.admin.patch(`/api/admin/announcements/${live.id}`, { isActive: false })).status).toBe(
      200,
    );
    expect(await t.api.runtime.eventStore.readStream(`announcement-${live.id}`)).toHaveLength(2);

    const on = await t.admin.patch<Announcement>(`/api/admin/announcements/${live.id}`, { isActive: true });
    expect(on.body.isActive).toBe(true);
    expect(await titlesShown(free, ours)).toEqual(['Live']);
  });

  it('answers 401 to a signed-out caller', async () => {
    const signedOut = t.api.client();
    expect((await signedOut.get('/api/announcements')).status).toBe(401);
    const published = await publish({ title: 'Signed out' });
    expect((await signedOut.post(`/api/announcements/${published.id}/dismiss`)).status).toBe(401);
  });
});

describe('dismissing', () => {
  it('hides an announcement from that user only, for good, also once switched off and on again', async () => {
    const published = await publish({ title: 'Dismiss me' });
    const { client: ada } = await signedUpClient(t.api, 'announce.ada');
    const { client: bob } = await signedUpClient(t.api, 'announce.bob');

    const dismissed = await ada.post(`/api/announcements/${published.id}/dismiss`);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toEqual({ id: published.id, dismissed: true });
    expect(await titlesShown(ada, [published])).toEqual([]);
    expect(await titlesShown(bob, [published])).toEqual(['Dismiss me']);

    // Again (a second tab): the same answer, nothing more.
    expect((await ada.post(`/api/announcements/${published.id}/dismiss`)).status).toBe(200);
    await t.admin.patch(`/api/admin/announcements/${published.id}`, { isActive: false });
    await t.admin.patch(`/api/admin/announcements/${published.id}`, { isActive: true });
    expect(await titlesShown(ada, [published])).toEqual([]);
    expect(await titlesShown(bob, [published])).toEqual(['Dismiss me']);
  });

  it('answers 404 for an unknown or malformed id, and for one not addressed to the user', async () => {
    const { client } = await signedUpClient(t.api, 'announce.404');
    const forPro = await publish({ title: 'Pro only', targetAudience: 'paid' });
    for (const id of [UNKNOWN_ID, 'not-a-uuid', forPro.id]) {
      const response = await client.post(`/api/announcements/${encodeURIComponent(id)}/dismiss`);
      expect({ id, status: response.status }).toEqual({ id, status: 404 });
      expect(response.body).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it("drops the user's dismissals when the account is erased", async () => {
    const published = await publish({ title: 'Erase me' });
    const { client, userId } = await signedUpClient(t.api, 'announce.erased');
    expect((await client.post(`/api/announcements/${published.id}/dismiss`)).status).toBe(200);
    const dismissalsOf = () =>
      withReadModels(t.api.runtime.database.db)
        .selectFrom('rm_announcement_dismissals')
        .select('announcement_id')
        .where('user_id', '=', userId)
        .execute();
    expect(await dismissalsOf()).toEqual([{ announcement_id: published.id }]);

    await t.api.runtime.accounts.erase(userId);
    await expect.poll(dismissalsOf).toEqual([]);
    expect((await client.get('/api/announcements')).status).toBe(401);
  });
});

describe('switching one off', () => {
  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid', '1']) {
      const response = await t.admin.patch(`/api/admin/announcements/${id}`, { isActive: false });
      expect({ id, status: response.status }).toEqual({ id, status: 404 });
      expect(response.body).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('refuses a body without isActive, naming it', async () => {
    const published = await publish({ title: 'No body' });
    const response = await t.admin.patch(`/api/admin/announcements/${published.id}`, {});
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ field: 'isActive' });
  });
});
