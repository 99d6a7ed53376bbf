import type { OwnedPremiumSlug, Ticket, TicketMessage } from '@sniplink/contracts';
import {
  type HttpClient,
  type HttpResponse,
  signedUpClient,
  testApiWithAdmin,
} from '@sniplink/test-support/api';
import { premiumSlugOwner } from '@sniplink/test-support/premium';
import { describe, expect, it } from 'vitest';
import { TestPayments } from '../billing/testing';

const ADMIN_EMAIL = 'limits.admin@example.com';

const payments = new TestPayments();
// The limits as shipped (the other API tests scale them up).
const t = testApiWithAdmin(ADMIN_EMAIL, { env: { WRITE_LIMIT_SCALE: '1' }, payments });

/** Sends `count` calls one after the other, as a script would; their statuses in order. */
async function burst(count: number, call: (index: number) => Promise<HttpResponse>): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await call(index)).status);
  return statuses;
}

/** The refusal past a limit: 429 RATE_LIMITED, and a Retry-After within the limit's window. */
function expectRefused(response: HttpResponse, windowSeconds: number): void {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ code: 'RATE_LIMITED' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

const LONG_MESSAGE = 'x'.repeat(9_000);
const openTicket = (client: HttpClient, subject: string) =>
  client.post<Ticket>('/api/support/tickets', { subject, message: LONG_MESSAGE, priority: 'urgent' });
const ticketsOf = async (client: HttpClient) => (await client.get<Ticket[]>('/api/support/tickets')).body;

describe('support tickets: 5 per user per 10 minutes', () => {
  it('opens 5 urgent tickets in a burst, refuses the 6th with Retry-After and stores nothing of it', async () => {
    const { client } = await signedUpClient(t.api, 'limits.tickets');
    expect(await burst(5, (index) => openTicket(client, `Down ${index}`))).toEqual([201, 201, 201, 201, 201]);
    expectRefused(await openTicket(client, 'Down 5'), 600);
    expect((await ticketsOf(client)).map((ticket) => ticket.subject).sort()).toEqual([
      'Down 0',
      'Down 1',
      'Down 2',
      'Down 3',
      'Down 4',
    ]);
  });

  it('leaves another user free to open one', async () => {
    const { client: first } = await signedUpClient(t.api, 'limits.tickets.first');
    expect((await burst(6, (index) => openTicket(first, `Mine ${index}`))).at(-1)).toBe(429);
    const { client: other } = await signedUpClient(t.api, 'limits.tickets.other');
    expect((await openTicket(other, 'Mine too')).status).toBe(201);
  });
});

describe('ticket messages: 20 per user per 10 minutes', () => {
  it('posts 20 replies in a burst, refuses the 21st and stores nothing of it; another user still replies', async () => {
    const { client } = await signedUpClient(t.api, 'limits.messages');
    const ticket = (await openTicket(client, 'Chatty')).body;
    const reply = (index: number) =>
      client.post(`/api/support/tickets/${ticket.id}/messages`, { message: `Reply ${index}` });
    expect(new Set(await burst(20, reply))).toEqual(new Set([201]));
    expectRefused(await reply(20), 600);
    const messages = (await client.get<TicketMessage[]>(`/api/support/tickets/${ticket.id}/messages`)).body;
    expect(messages).toHaveLength(21);
    expect(messages.map((message) => message.message)).not.toContain('Reply 20');

    const { client: other } = await signedUpClient(t.api, 'limits.messages.other');
    const theirs = (await openTicket(other, 'Mine')).body;
    expect((await other.post(`/api/support/tickets/${theirs.id}/messages`, { message: 'Hi' })).status).toBe(
      201,
    );
  });
});

describe('billing-portal sessions: 10 per user per 10 minutes', () => {
  const portalsOf = (customerId: string) =>
    payments.calls.filter(
      (call) =>
        call.method === 'createPortal' && (call.input as { customerId: string }).customerId === customerId,
    ).length;

  it('makes 10 portal sessions, refuses the 11th without asking the provider for one; another user gets theirs', async () => {
    const { client, userId } = await signedUpClient(t.api, 'limits.portal');
    expect((await client.post('/api/create-subscription', { plan: 'monthly' })).status).toBe(200);
    const portal = () => client.post('/api/billing/portal');
    expect(new Set(await burst(10, portal))).toEqual(new Set([200]));
    expectRefused(await portal(), 600);
    expect(portalsOf(`cus_${userId.slice(-12)}`)).toBe(10);

    const { client: other } = await signedUpClient(t.api, 'limits.portal.other');
    expect((await other.post('/api/create-subscription', { plan: 'monthly' })).status).toBe(200);
    expect((await other.post('/api/billing/portal')).status).toBe(200);
  });
});

describe('premium-slug target changes: 20 per user per 10 minutes', () => {
  it('changes the target 20 times, refuses the 21st and keeps the 20th target', async () => {
    const { client, slug } = await premiumSlugOwner(t.api, payments, t.admin, 'limits.slug');
    const setTarget = (index: number) =>
      client.request('PUT', `/api/marketplace/premium-slugs/${slug.slug}/url`, {
        url: `https://example.com/target/${index}`,
      });
    expect(new Set(await burst(20, setTarget))).toEqual(new Set([200]));
    expectRefused(await setTarget(20), 600);
    const owned = (await client.get<OwnedPremiumSlug[]>('/api/user/premium-slugs')).body;
    expect(owned).toEqual([
      expect.objectContaining({ slug: slug.slug, targetUrl: 'https://example.com/target/19' }),
    ]);
  });
});

describe('the OpenAPI document', () => {
  it('states the tighter limits of the routes whose writes cost others', async () => {
    const document = (
      await t.api
        .client()
        .get<{ paths: Record<string, Record<string, Record<string, unknown>>> }>('/api/openapi.json')
    ).body;
    const limitOf = (path: string, method: string) => document.paths[path]?.[method]?.['x-rate-limit'];
    expect(limitOf('/api/support/tickets', 'post')).toEqual({ requests: 5, windowSeconds: 600, per: 'user' });
    expect(limitOf('/api/support/tickets/{id}/messages', 'post')).toMatchObject({
      requests: 20,
      windowSeconds: 600,
    });
    expect(limitOf('/api/billing/portal', 'post')).toMatchObject({ requests: 10, windowSeconds: 600 });
    expect(limitOf('/api/marketplace/premium-slugs/{slug}/url', 'put')).toMatchObject({ requests: 20 });
    expect(limitOf('/api/links', 'post')).toEqual({ requests: 120, windowSeconds: 60, per: 'user' });
  });
});
