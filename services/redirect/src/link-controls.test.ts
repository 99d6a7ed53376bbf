import type { RedirectRow } from '@sniplink/projections';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  answerControlled,
  type ControlledVisit,
  type ControlPages,
  controlsOf,
  fastUntil,
  type LinkControlsDeps,
} from './link-controls';

const row = (controls: Partial<RedirectRow>): RedirectRow => ({
  link_id: '01890000-0000-7000-8000-0000000000c1',
  original_url: 'https://example.com/',
  owner_id: 'owner',
  origin: 'dashboard',
  created_at: new Date(),
  expires_at: null,
  max_clicks: null,
  fallback_url: null,
  paused: false,
  rules: [],
  pending_approval: false,
  owner_suspended: false,
  password_hash: null,
  ...controls,
});

describe('which links leave the fast paths', () => {
  it('keeps a plain link (a fallback alone is no control) and one that only expires on them until it expires', () => {
    expect(controlsOf(row({ fallback_url: 'https://example.org/' }))).toBeUndefined();
    const expiry = new Date('2030-01-01T00:00:00Z');
    expect(fastUntil(controlsOf(row({ expires_at: expiry })) ?? {})).toBe(expiry.getTime());
    expect(fastUntil(controlsOf(row({ expires_at: expiry, max_clicks: 3 })) ?? {})).toBe(0);
    expect(fastUntil(controlsOf(row({ paused: true })) ?? {})).toBe(0);
    expect(fastUntil(controlsOf(row({ password_hash: '$argon2id$x' })) ?? {})).toBe(0);
    const rules = [{ when: { country: ['FR'] }, url: 'https://example.fr/' }];
    expect(controlsOf(row({ rules }))).toEqual({ rules });
    expect(fastUntil(controlsOf(row({ rules, expires_at: expiry })) ?? {})).toBe(0);
  });
});

describe('a click-limited visit', () => {
  const BROWSER =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
  const answered: string[] = [];
  /** Notes what the visit was answered with. */
  const say = (what: string, reply: FastifyReply) => {
    answered.push(what);
    return reply;
  };
  const pages: ControlPages = {
    password: (reply) => say('password', reply),
    paused: (reply) => say('paused', reply),
    expired: (reply) => say('expired', reply),
    tooManyGuesses: (reply) => say('429', reply),
  };
  const visitAs = (userAgent: string): ControlledVisit => {
    const reply = {} as FastifyReply;
    return {
      request: { headers: { 'user-agent': userAgent } } as unknown as FastifyRequest,
      reply,
      code: 'abc',
      counted: true,
      redirect: () => say('target', reply),
      redirectTo: (url) => say(url, reply),
      failed: () => say('failed', reply),
    };
  };
  const deps = (take: LinkControlsDeps['takeClick']): LinkControlsDeps => ({
    takeClick: take,
    hasClickLeft: async () => false,
    verifyPassword: async () => false,
    guesses: { blockedFor: async () => 0, wrongGuess: async () => 0 },
    cookieSecret: Buffer.alloc(32),
    secureCookie: false,
  });

  it('takes a click for a human, none for a bot, and leads nowhere when the take cannot be made', async () => {
    answered.length = 0;
    const controls = { maxClicks: 1, fallbackUrl: 'https://example.org/over' };
    await answerControlled(
      controls,
      'l',
      visitAs(BROWSER),
      deps(async () => true),
      pages,
    );
    await answerControlled(
      controls,
      'l',
      visitAs('curl/8.5.0'),
      deps(async () => true),
      pages,
    );
    await answerControlled(
      controls,
      'l',
      visitAs(BROWSER),
      deps(async () => false),
      pages,
    );
    await answerControlled(
      controls,
      'l',
      visitAs(BROWSER),
      deps(async () => Promise.reject(new Error('database down'))),
      pages,
    );
    expect(answered).toEqual(['target', 'https://example.org/over', 'https://example.org/over', 'failed']);
  });
});
