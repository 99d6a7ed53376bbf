import type { AuditPage, ErrorBody, Link } from '@sniplink/contracts';
import { userStream } from '@sniplink/contracts/accounts/events';
import type {
  ConsoleEvent,
  CorrelatedEvents,
  StateAfter,
  StreamEvents,
  StreamMatch,
  StreamsPage,
} from '@sniplink/contracts/event-console/api';
import { linkStream } from '@sniplink/contracts/links/events';
import { linkDecider } from '@sniplink/domain';
import { signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { describe, expect, it } from 'vitest';

const ADMIN_EMAIL = 'events.admin@example.com';
const t = testApiWithAdmin(ADMIN_EMAIL);

const get = async <T>(path: string) => {
  const answer = await t.admin.get<T & ErrorBody>(path);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};
const eventsOf = (streamId: string, query = '') =>
  get<StreamEvents>(`/api/admin/streams/${encodeURIComponent(streamId)}/events${query}`);
const reveal = (streamId: string, revision: number) =>
  t.admin.post<ConsoleEvent & ErrorBody>(
    `/api/admin/streams/${encodeURIComponent(streamId)}/events/${revision}/reveal`,
  );

/** A member with a link whose title was changed once: the link's stream holds two events. */
async function memberWithLink(label: string) {
  const member = await signedUpClient(t.api, label);
  const created = await member.client.post<Link>('/api/links', {
    originalUrl: 'https://example.org/history',
    title: 'First title',
  });
  expect(created.status).toBe(201);
  const changed = await member.client.patch<Link>(`/api/links/${created.body.id}`, { title: 'Second title' });
  expect(changed.status).toBe(200);
  const email = (await t.api.runtime.accounts.requireUser(member.userId)).email;
  return { ...member, email, link: created.body };
}

describe('event console', () => {
  it('finds a link by its code and lists its events with their metadata and actors', async () => {
    const member = await memberWithLink('events.link');
    const { matches } = await get<{ matches: StreamMatch[] }>(
      `/api/admin/streams/find?q=${encodeURIComponent(member.link.shortCode.toUpperCase())}`,
    );
    const streamId = linkStream.id(member.link.id);
    expect(matches).toContainEqual({ streamId, kind: 'Link', label: member.link.shortCode });

    const page = await eventsOf(streamId);
    expect(page).toMatchObject({ streamId, next: null, foldable: true });
    expect(page.events.map((event) => [event.revision, event.type])).toEqual([
      [0, 'LinkCreated'],
      [1, expect.any(String)],
    ]);
    for (const event of page.events) {
      expect(event).toMatchObject({
        streamId,
        version: expect.any(Number),
        position: expect.stringMatching(/^\d+\/\d+$/),
        occurredAt: expect.any(String),
        actor: { id: member.userId, kind: 'user', email: member.email },
        channel: null,
        correlationId: expect.any(String),
        causationId: expect.any(String),
        revealed: false,
      });
    }
    expect(page.events[0]?.data).toMatchObject({ originalUrl: 'https://example.org/history' });

    const second = await eventsOf(streamId, '?from=1&limit=1');
    expect(second.events.map((event) => event.revision)).toEqual([1]);
    expect((await eventsOf(streamId, '?limit=1')).next).toBe(1);

    const streams = await get<StreamsPage>(`/api/admin/streams?prefix=${encodeURIComponent(streamId)}`);
    expect(streams.streams).toEqual([
      expect.objectContaining({ streamId, category: 'link', revision: 1, eventCount: 2 }),
    ]);
    const byType = await get<StreamsPage>(`/api/admin/streams?prefix=link-&type=${page.events[1]?.type}`);
    expect(byType.streams.map((stream) => stream.streamId)).toContain(streamId);
    expect(byType.streams.every((stream) => stream.lastEventType === page.events[1]?.type)).toBe(true);
  });

  it('finds a user by e-mail, a ticket by its id and a premium slug by its name, and reveals a ticket’s words', async () => {
    const member = await signedUpClient(t.api, 'events.finder');
    const { email } = await t.api.runtime.accounts.requireUser(member.userId);
    if (!email) throw new Error('a password account has an e-mail address');
    const ticket = await member.client.post<{ id: string }>('/api/support/tickets', {
      subject: 'My link is broken',
      message: 'It sends people nowhere',
    });
    expect(ticket.status).toBe(201);
    const slug = `evt${Date.now().toString(36)}`;
    expect((await t.admin.post('/api/admin/premium-slugs', { slug, category: 'common-words' })).status).toBe(
      201,
    );

    const find = async (q: string) =>
      (await get<{ matches: StreamMatch[] }>(`/api/admin/streams/find?q=${encodeURIComponent(q)}`)).matches;
    expect(await find(` ${email.toUpperCase()} `)).toContainEqual({
      streamId: userStream.id(member.userId),
      kind: 'User',
      label: email,
    });
    const ticketStreamId = `ticket-${ticket.body.id}`;
    expect(await find(ticket.body.id)).toContainEqual({
      streamId: ticketStreamId,
      kind: 'Ticket',
      label: ticket.body.id,
    });
    expect(await find(slug.toUpperCase())).toContainEqual(
      expect.objectContaining({ kind: 'Premium slug', label: slug }),
    );
    expect(await find('nothing-like-this')).toEqual([]);
    expect((await t.admin.get<ErrorBody>('/api/admin/streams/find?q=')).body).toMatchObject({ field: 'q' });

    // A ticket's words are its owner's personal data: hidden, then revealed under the owner's key.
    const [opened] = (await eventsOf(ticketStreamId)).events;
    expect(opened?.data).toMatchObject({ subject: '[encrypted]', message: '[encrypted]' });
    const revealed = await reveal(ticketStreamId, 0);
    expect(revealed.body.data).toMatchObject({
      subject: 'My link is broken',
      message: 'It sends people nowhere',
    });
  });

  it('lists the events of one request across streams by their correlation id', async () => {
    const member = await memberWithLink('events.correlated');
    const [created] = (await eventsOf(linkStream.id(member.link.id))).events;
    const correlationId = created?.correlationId ?? '';
    const correlated = await until(
      () => t.admin.get<CorrelatedEvents>(`/api/admin/correlations/${encodeURIComponent(correlationId)}`),
      (answer) => answer.status === 200 && answer.body.events.length > 1,
    );
    const streams = new Set(correlated.body.events.map((event) => event.streamId));
    expect(streams).toContain(linkStream.id(member.link.id));
    expect(streams.size).toBeGreaterThan(1);
    expect(correlated.body.events.every((event) => event.correlationId === correlationId)).toBe(true);
    expect((await t.admin.get('/api/admin/correlations/no-such-request')).status).toBe(404);
  });

  it('gives the state right after each event: the decider’s fold up to it', async () => {
    const member = await memberWithLink('events.state');
    const streamId = linkStream.id(member.link.id);
    const recorded = await t.api.runtime.eventStore.readStream(streamId);
    for (const [index, event] of recorded.entries()) {
      const folded = recorded
        .slice(0, index + 1)
        .map((read) => linkDecider.events.narrow(read))
        .reduce(linkDecider.evolve, linkDecider.initialState());
      const answer = await get<StateAfter>(
        `/api/admin/streams/${streamId}/state?revision=${event.revision.toString()}`,
      );
      expect(answer).toEqual({ streamId, revision: index, eventType: event.type, state: folded });
    }
    const first = await get<StateAfter>(`/api/admin/streams/${streamId}/state?revision=0`);
    const last = await get<StateAfter>(`/api/admin/streams/${streamId}/state?revision=1`);
    expect(first.state).toMatchObject({ status: 'active', title: 'First title' });
    expect(last.state).toMatchObject({ status: 'active', title: 'Second title' });

    const missing = await t.admin.get<ErrorBody>(`/api/admin/streams/${streamId}/state?revision=9`);
    expect(missing.status).toBe(404);
    const bad = await t.admin.get<ErrorBody>(`/api/admin/streams/${streamId}/state?revision=x`);
    expect(bad).toMatchObject({ status: 400, body: { field: 'revision' } });
  });

  it('hides personal data until an admin reveals it, and the audit history lists the reveal', async () => {
    const member = await signedUpClient(t.api, 'events.personal');
    const streamId = userStream.id(member.userId);
    const [registered] = (await eventsOf(streamId)).events;
    expect(registered).toMatchObject({ type: 'UserRegistered', revealed: false });
    expect(registered?.personalFields).toContain('email');
    expect(registered?.data).toMatchObject({ email: '[encrypted]' });
    expect(JSON.stringify(registered?.data)).not.toContain('@example.com');
    const state = await get<StateAfter>(`/api/admin/streams/${streamId}/state?revision=0`);
    expect(JSON.stringify(state)).not.toContain('@example.com');

    const revealed = await reveal(streamId, 0);
    expect(revealed.status).toBe(200);
    expect(revealed.body).toMatchObject({
      revealed: true,
      data: { email: expect.stringMatching(/^events\.personal\..*@example\.com$/) },
    });

    const audit = await get<AuditPage>(
      `/api/admin/audit?target=${encodeURIComponent(`disclosure-${streamId}`)}`,
    );
    expect(audit.entries).toEqual([
      expect.objectContaining({
        action: 'PersonalDataRevealed',
        actor: expect.objectContaining({ id: t.adminId, email: ADMIN_EMAIL }),
        details: expect.objectContaining({
          streamId,
          revision: 0,
          fields: expect.arrayContaining(['email']),
        }),
      }),
    ]);
    expect(JSON.stringify(audit)).not.toContain('events.personal');
  });

  it('keeps an erased user’s personal data unreadable, revealed or not', async () => {
    const member = await signedUpClient(t.api, 'events.erased');
    const streamId = userStream.id(member.userId);
    await t.api.runtime.accounts.erase(member.userId);
    const revealed = await reveal(streamId, 0);
    expect(revealed.status).toBe(200);
    expect(revealed.body.data).toMatchObject({ email: '[erased]' });
    expect(JSON.stringify(revealed.body)).not.toContain('events.erased');
  });

  it('answers 404 for a stream with no events and for an event without personal data', async () => {
    expect((await t.admin.get<ErrorBody>('/api/admin/streams/link-nothing/events')).status).toBe(404);
    const member = await memberWithLink('events.plain');
    const refused = await reveal(linkStream.id(member.link.id), 0);
    expect(refused.status).toBe(404);
  });

  it('refuses every route to a signed-out visitor (401) and to a member who is not an admin (403)', async () => {
    const member = await signedUpClient(t.api, 'events.member');
    const streamId = encodeURIComponent(userStream.id(member.userId));
    const calls: [string, string][] = [
      ['GET', '/api/admin/streams'],
      ['GET', '/api/admin/streams/find?q=x'],
      ['GET', `/api/admin/streams/${streamId}/events`],
      ['GET', `/api/admin/streams/${streamId}/state?revision=0`],
      ['POST', `/api/admin/streams/${streamId}/events/0/reveal`],
      ['GET', '/api/admin/correlations/x'],
    ];
    const visitor = t.api.client();
    for (const [method, path] of calls) {
      expect((await visitor.request(method, path)).status, `${method} ${path}`).toBe(401);
      expect((await member.client.request(method, path)).status, `${method} ${path}`).toBe(403);
    }
  });
});
