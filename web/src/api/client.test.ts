import { supportAdminEndpoints, supportEndpoints } from '@sniplink/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, urlOf } from './client';
import { ApiError } from './http';

afterEach(() => vi.unstubAllGlobals());

const ticket = {
  id: 't-1',
  subject: 'Help',
  message: 'It broke',
  status: 'open',
  priority: 'medium',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('urlOf', () => {
  it('percent-encodes a path parameter, so an id cannot reach another path', () => {
    expect(urlOf(supportEndpoints.ticketMessages, { params: { id: '../a b?c' } })).toBe(
      '/api/support/tickets/..%2Fa%20b%3Fc/messages',
    );
  });

  it('adds the query values that are set, in their order, and no "?" when none is', () => {
    const { adminTickets } = supportAdminEndpoints;
    expect(urlOf(adminTickets, { query: { status: undefined, priority: 'urgent', page: 2 } })).toBe(
      '/api/admin/tickets?priority=urgent&page=2',
    );
    expect(urlOf(adminTickets, { query: {} })).toBe('/api/admin/tickets');
  });
});

describe('call', () => {
  it('sends the method and the body as JSON and parses the answer with the endpoint', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(ticket), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const closed = await call(supportEndpoints.closeTicket, {
      params: { id: 't 1' },
      body: { status: 'closed' },
    });
    expect(closed.id).toBe('t-1');
    expect(fetch).toHaveBeenCalledWith('/api/support/tickets/t%201', {
      method: 'PATCH',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"closed"}',
    });
  });

  it('throws the ApiError of an error answer', async () => {
    const body = { code: 'NOT_FOUND', message: 'No such ticket' };
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status: 404 }));
    const failed = call(supportEndpoints.ticketMessages, { params: { id: 'x' } });
    await expect(failed).rejects.toBeInstanceOf(ApiError);
    await expect(failed).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
