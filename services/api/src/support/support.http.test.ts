import type { AdminTicket, AdminTicketsPage, Ticket, TicketMessage } from '@sniplink/contracts';
import { ticketStream } from '@sniplink/contracts';
import { createLogger, fixedClock } from '@sniplink/platform';
import { withReadModels } from '@sniplink/projections';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { mailsTo } from '@sniplink/test-support/outbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeResolvedTickets } from './auto-close';
import { ticketReference } from './notifications';
import { DIGEST_INTERVAL_MS, UrgentTicketDigest } from './urgent-digest';

const ADMIN_EMAIL = 'support.admin@example.com';
const UNKNOWN_ID = '01890000-0000-7000-8000-0000000000ff';

const t = testApiWithAdmin(ADMIN_EMAIL);
let owner: HttpClient;
let stranger: HttpClient;
beforeAll(async () => {
  ({ client: owner } = await signedUpClient(t.api, 'support.owner'));
  ({ client: stranger } = await signedUpClient(t.api, 'support.stranger'));
});

async function openTicket(client: HttpClient, body: Record<string, unknown> = {}): Promise<Ticket> {
  const response = await client.post<Ticket>('/api/support/tickets', {
    subject: 'My link does not redirect',
    message: 'It shows a blank page.',
    ...body,
  });
  expect(response.status).toBe(201);
  return response.body;
}

const ownTicket = async (client: HttpClient, id: string) =>
  (await client.get<Ticket[]>('/api/support/tickets')).body.find((ticket) => ticket.id === id);
const messagesOf = async (client: HttpClient, id: string) =>
  (await client.get<TicketMessage[]>(`/api/support/tickets/${id}/messages`)).body;
const listed = async (query = '') => (await t.admin.get<AdminTicketsPage>(`/api/admin/tickets${query}`)).body;

describe("a user's tickets", () => {
  it('opens a ticket (priority medium by default) and lists it, newest first', async () => {
    const first = await openTicket(owner, { subject: 'First' });
    const second = await openTicket(owner, { subject: 'Second', priority: 'high' });
    expect(first).toMatchObject({ subject: 'First', priority: 'medium', status: 'open' });
    expect(second).toMatchObject({ priority: 'high' });
    const mine = (await owner.get<Ticket[]>('/api/support/tickets')).body;
    expect(mine.map((ticket) => ticket.subject).slice(0, 2)).toEqual(['Second', 'First']);
    expect(await messagesOf(owner, first.id)).toEqual([
      expect.objectContaining({ message: 'It shows a blank page.', isFromAdmin: false }),
    ]);
  });

  it('refuses a missing, blank or too long field with 400 naming it', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ message: 'x' }, 'subject'],
      [{ subject: 'x' }, 'message'],
      [{ subject: '   ', message: 'x' }, 'subject'],
      [{ subject: '\u200B', message: 'x' }, 'subject'],
      [{ subject: 'x', message: '\u200B\u200D\u2060\uFEFF\u00AD\u3000' }, 'message'],
      [{ subject: 'x'.repeat(201), message: 'x' }, 'subject'],
      [{ subject: 'x', message: 'x'.repeat(10_001) }, 'message'],
      [{ subject: 'x', message: 'x', priority: 'asap' }, 'priority'],
    ];
    for (const [body, field] of cases) {
      const response = await owner.post('/api/support/tickets', body);
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(response.body).toMatchObject({ field });
    }
    const ticket = await openTicket(owner);
    const blank = await owner.post(`/api/support/tickets/${ticket.id}/messages`, { message: ' \n ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ field: 'message' });
    const zeroWidth = await owner.post(`/api/support/tickets/${ticket.id}/messages`, { message: '\u200B' });
    expect(zeroWidth.body).toMatchObject({ field: 'message', message: 'message must not be blank' });
    expect(await messagesOf(owner, ticket.id)).toHaveLength(1);
  });

  it("answers 404 for another user's ticket, an unknown or a malformed id, on every route", async () => {
    const ticket = await openTicket(owner);
    for (const id of [ticket.id, UNKNOWN_ID, 'not-a-uuid']) {
      const calls = [
        await stranger.get(`/api/support/tickets/${id}/messages`),
        await stranger.post(`/api/support/tickets/${id}/messages`, { message: 'Hi' }),
        await stranger.patch(`/api/support/tickets/${id}`, { status: 'closed' }),
      ];
      expect(calls.map((call) => call.status)).toEqual([404, 404, 404]);
    }
    expect(await ownTicket(stranger, ticket.id)).toBeUndefined();
    expect(await messagesOf(owner, ticket.id)).toHaveLength(1);
    expect((await ownTicket(owner, ticket.id))?.status).toBe('open');
  });

  it('answers 401 to a signed-out caller on every route', async () => {
    const ticket = await openTicket(owner);
    const signedOut = t.api.client();
    const calls = [
      await signedOut.get('/api/support/tickets'),
      await signedOut.post('/api/support/tickets', { subject: 'x', message: 'y' }),
      await signedOut.get(`/api/support/tickets/${ticket.id}/messages`),
      await signedOut.post(`/api/support/tickets/${ticket.id}/messages`, { message: 'Hi' }),
      await signedOut.patch(`/api/support/tickets/${ticket.id}`, { status: 'closed' }),
    ];
    expect(calls.map((call) => call.status)).toEqual([401, 401, 401, 401, 401]);
    expect(calls[0]?.text).toContain('Unauthorized');
  });
});

describe('the life of a ticket', () => {
  it('goes open, in progress (assigned), resolved, reopened by a reply, and closed by its owner for good', async () => {
    const ticket = await openTicket(owner);
    const assigned = await t.admin.patch<AdminTicket>(`/api/admin/tickets/${ticket.id}/assign`);
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ status: 'in_progress', assignedTo: t.adminId });

    const reply = await t.admin.post(`/api/admin/tickets/${ticket.id}/reply`, { message: 'Which link?' });
    expect(reply.status).toBe(201);
    expect((await messagesOf(owner, ticket.id)).map((m) => [m.message, m.isFromAdmin])).toEqual([
      ['It shows a blank page.', false],
      ['Which link?', true],
    ]);

    const resolved = await t.admin.patch<AdminTicket>(`/api/admin/tickets/${ticket.id}/status`, {
      status: 'resolved',
    });
    expect(resolved.body.status).toBe('resolved');
    expect((await ownTicket(owner, ticket.id))?.status).toBe('resolved');

    // The owner answers: back to the assigned admin.
    const answer = await owner.post(`/api/support/tickets/${ticket.id}/messages`, {
      message: 'Still broken',
    });
    expect(answer.status).toBe(201);
    expect((await ownTicket(owner, ticket.id))?.status).toBe('in_progress');

    const closed = await owner.patch<Ticket>(`/api/support/tickets/${ticket.id}`, { status: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('closed');

    const refused = await owner.post(`/api/support/tickets/${ticket.id}/messages`, { message: 'One more' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'TICKET_CLOSED', message: expect.stringContaining('closed') });
    const staffRefused = await t.admin.post(`/api/admin/tickets/${ticket.id}/reply`, { message: 'Hello?' });
    expect(staffRefused.status).toBe(409);
    const reResolved = await t.admin.patch(`/api/admin/tickets/${ticket.id}/status`, { status: 'resolved' });
    expect(reResolved.status).toBe(409);
    expect(await messagesOf(owner, ticket.id)).toHaveLength(3);
  });

  it('is in progress once staff reply to an open ticket; a reply on a resolved, unassigned one reopens it as open', async () => {
    const ticket = await openTicket(owner);
    await t.admin.post(`/api/admin/tickets/${ticket.id}/reply`, { message: 'Looking into it' });
    expect((await ownTicket(owner, ticket.id))?.status).toBe('in_progress');
    const other = await openTicket(owner);
    await t.admin.patch(`/api/admin/tickets/${other.id}/status`, { status: 'resolved' });
    await owner.post(`/api/support/tickets/${other.id}/messages`, { message: 'Not fixed' });
    expect((await ownTicket(owner, other.id))?.status).toBe('open');
  });

  it('closes by itself 7 days after it was resolved, on the sweep’s clock', async () => {
    const ticket = await openTicket(owner);
    const resolvedAt = new Date();
    await t.admin.patch(`/api/admin/tickets/${ticket.id}/status`, { status: 'resolved' });
    const clock = fixedClock(new Date(resolvedAt.getTime() + 7 * 24 * 3_600_000 - 60_000).toISOString());
    const sweep = () =>
      closeResolvedTickets({
        db: t.api.runtime.database.db,
        eventStore: t.api.runtime.eventStore,
        log: createLogger('silent'),
        clock,
      });
    await sweep();
    expect((await ownTicket(owner, ticket.id))?.status).toBe('resolved');
    clock.set(new Date(resolvedAt.getTime() + 7 * 24 * 3_600_000 + 60_000).toISOString());
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    const last = (await t.api.runtime.eventStore.readStream(ticketStream.id(ticket.id))).at(-1);
    expect(last).toMatchObject({ type: 'TicketStatusChanged', data: { status: 'closed', by: 'system' } });
    await expect.poll(async () => (await ownTicket(owner, ticket.id))?.status).toBe('closed');
  });
});

describe('the Support tab', () => {
  it('lists urgent tickets first, then the newest, with their owner; filters and counts match the tickets', async () => {
    const { client } = await signedUpClient(t.api, 'support.lister');
    const low = await openTicket(client, { subject: 'Low one', priority: 'low' });
    const urgent = await openTicket(client, { subject: 'Urgent one', priority: 'urgent' });
    const newest = await openTicket(client, { subject: 'Newest one' });
    const page = await listed();
    const ids = page.tickets.map((ticket) => ticket.id);
    expect(ids.indexOf(urgent.id)).toBeLessThan(ids.indexOf(newest.id));
    expect(ids.indexOf(newest.id)).toBeLessThan(ids.indexOf(low.id));
    expect(page.tickets[0]?.priority).toBe('urgent');
    expect(page.tickets.find((ticket) => ticket.id === low.id)?.userEmail).toContain('support.lister');

    const byStatus = await Promise.all(
      (['open', 'in_progress', 'resolved', 'closed'] as const).map(async (status) => [
        status,
        (await listed(`?status=${status}`)).total,
      ]),
    );
    expect(Object.fromEntries(byStatus)).toEqual(page.counts);
    expect(page.total).toBe(Object.values(page.counts).reduce((sum, count) => sum + count, 0));
    const lows = await listed('?priority=low&status=open');
    expect(lows.tickets.every((t) => t.priority === 'low' && t.status === 'open')).toBe(true);
    expect(lows.tickets.map((t) => t.id)).toContain(low.id);

    const before = page.counts;
    await t.admin.patch(`/api/admin/tickets/${low.id}/assign`);
    const after = (await listed()).counts;
    expect(after).toEqual({ ...before, open: before.open - 1, in_progress: before.in_progress + 1 });
  });

  it('refuses a bad filter naming it, and answers 404 for unknown or malformed ids', async () => {
    const bad = await t.admin.get('/api/admin/tickets?status=pending');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'status' });
    for (const id of [UNKNOWN_ID, 'nope']) {
      const calls = [
        await t.admin.get(`/api/admin/tickets/${id}/messages`),
        await t.admin.patch(`/api/admin/tickets/${id}/assign`),
        await t.admin.post(`/api/admin/tickets/${id}/reply`, { message: 'Hi' }),
        await t.admin.patch(`/api/admin/tickets/${id}/status`, { status: 'resolved' }),
      ];
      expect(calls.map((call) => call.status)).toEqual([404, 404, 404, 404]);
    }
  });
});

describe('mail', () => {
  /** The admins' digest as a process whose clock is `ms` ahead would send it. */
  const digestAfter = (ms: number) =>
    new UrgentTicketDigest({
      db: t.api.runtime.database.db,
      mailer: t.api.runtime.mailer,
      clock: fixedClock(new Date(Date.now() + ms).toISOString()),
      publicUrl: t.api.config.publicUrl,
    });
  /** The mails to `email` that contain `text`, once at least one has arrived (mail goes out after the answer). */
  const mailsWith = async (email: string, text: string) => {
    await expect
      .poll(async () => (await mailsTo(t.api.config.dataDir, email)).filter((m) => m.includes(text)).length)
      .toBeGreaterThan(0);
    return (await mailsTo(t.api.config.dataDir, email)).filter((m) => m.includes(text));
  };

  it('tells the owner when staff reply, in plain text with no HTML part', async () => {
    const email = `support.mailed.${Date.now()}@example.com`;
    const client = t.api.client();
    expect((await client.post('/api/auth/register', { email, password: 'correct horse' })).status).toBe(201);
    const ticket = await openTicket(client, { subject: 'Secret subject <b>' });
    await t.admin.post(`/api/admin/tickets/${ticket.id}/reply`, { message: 'Try <script>x</script> again' });
    const [mail = ''] = await mailsWith(email, ticketReference(ticket.id));
    expect(mail).toContain(`Subject: Support ticket ${ticketReference(ticket.id)}: the Support Team replied`);
    expect(mail).toContain('Try <script>x</script> again');
    expect(mail).not.toContain('text/html');
    expect(mail).not.toContain('Secret subject');
  });

  it('tells every admin of a new urgent ticket, without its text; a medium one mails nobody', async () => {
    const urgent = await openTicket(owner, { subject: 'Everything is down', priority: 'urgent' });
    // The urgent ticket opened above was mailed at once; this one waits for the digest 10 minutes on.
    await digestAfter(DIGEST_INTERVAL_MS).send();
    const [mail = ''] = await mailsWith(ADMIN_EMAIL, ticketReference(urgent.id));
    expect(mail).toContain(`Subject: Urgent support ticket ${ticketReference(urgent.id)}`);
    expect(mail).not.toContain('Everything is down');
    const medium = await openTicket(owner, { priority: 'medium' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mentions = (await mailsTo(t.api.config.dataDir, ADMIN_EMAIL)).filter((m) =>
      m.includes(ticketReference(medium.id)),
    );
    expect(mentions).toEqual([]);
  });
});

describe('erasure', () => {
  it("makes the ticket's text unreadable in the log and drops it from the read model", async () => {
    const { client, userId } = await signedUpClient(t.api, 'support.erased');
    const ticket = await openTicket(client, { subject: 'Private matter', message: 'My phone is 555' });
    await t.admin.post(`/api/admin/tickets/${ticket.id}/reply`, { message: 'About your phone' });
    const [opened] = await t.api.runtime.eventStore.readStream(ticketStream.id(ticket.id));
    const stored = JSON.stringify(opened?.data);
    expect(stored).not.toContain('Private matter');
    const { subject } = (opened?.data ?? {}) as { subject: string };
    expect(await t.api.runtime.keyring.decrypt(userId, subject)).toBe('Private matter');

    await t.api.runtime.accounts.erase(userId);
    expect(await t.api.runtime.keyring.decrypt(userId, subject)).toBeNull();
    const rows = () =>
      Promise.all([
        withReadModels(t.api.runtime.database.db)
          .selectFrom('rm_support_tickets')
          .select('ticket_id')
          .where('user_id', '=', userId)
          .execute(),
        withReadModels(t.api.runtime.database.db)
          .selectFrom('rm_support_messages')
          .select('message_id')
          .where('user_id', '=', userId)
          .execute(),
      ]);
    await expect.poll(rows).toEqual([[], []]);
    expect((await listed()).tickets.map((t) => t.id)).not.toContain(ticket.id);
    expect((await t.admin.post(`/api/admin/tickets/${ticket.id}/reply`, { message: 'Hello?' })).status).toBe(
      404,
    );
  });
});
