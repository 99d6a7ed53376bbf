import type { Link } from '@sniplink/contracts';
import { createLogger } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../accounts/sessions';
import { buildApp } from '../app';
import type { LinkService } from '../links/link-service';
import { linkRoutes } from '../links/routes';
import { fixedSettings } from '../shared/settings';

const link: Link = {
  id: 'f3b3c1f0-0000-4000-8000-000000000001',
  title: null,
  originalUrl: 'https://example.com/menu',
  shortCode: 'menu1',
  shortUrl: 'http://localhost/s/menu1',
  clickCount: 3,
  createdAt: '2026-11-25T10:00:00.000Z',
  hasPassword: false,
  expiresAt: null,
  maxClicks: null,
  clicksUsed: null,
  fallbackUrl: null,
  paused: false,
  tags: [],
  rules: [],
  status: 'active',
  pendingApproval: false,
};

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

/** The app with a link service that answers `list` with these rows (no database: the schema is what is tried). */
async function appListing(rows: unknown[]): Promise<FastifyInstance> {
  const links = { list: async () => rows } as unknown as LinkService;
  const sessions = { resolve: async () => ({ userId: 'user-1' }) } as unknown as SessionStore;
  app = await buildApp({
    log: createLogger('silent'),
    readiness: {},
    allowedOrigins: [],
    routes: [
      (api) => linkRoutes(api, { links, sessions, db: undefined as never, settings: fixedSettings() }),
    ],
    sessions,
    writeLimits: {
      limiters: ({ keyPrefix, points, durationSeconds }) =>
        new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds }),
    },
  });
  return app;
}

const listLinks = (server: FastifyInstance) =>
  server.inject({ method: 'GET', url: '/api/links', cookies: { sid: 'a-session' } });

describe('answers are serialised through their schemas', () => {
  it('a field the schema does not name never leaves the server', async () => {
    const server = await appListing([{ ...link, ownerId: 'user-1', passwordHash: 'argon2id$…' }]);
    const response = await listLinks(server);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([link]);
    expect(response.body).not.toContain('passwordHash');
  });

  it('an answer that does not fit its schema is a 500, not a malformed body', async () => {
    const { clickCount: _missing, ...incomplete } = link;
    const response = await listLinks(await appListing([incomplete]));
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'Something went wrong on our side' });
  });
});
