import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TargetingRule } from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import type { RedirectRow } from '@sniplink/projections';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { isBotAgent } from './click-description';
import { matchingRule } from './targeting';

/** A link's controls as the cache keeps them: only those in force, so a plain link has none. */
export interface TargetControls {
  /** The argon2 hash of the password in force. */
  passwordHash?: string;
  paused?: true;
  /** Human clicks it redirects in all (`link_click_uses` counts them). */
  maxClicks?: number;
  /** Epoch ms from which it is expired. */
  expiresAt?: number;
  /** Where it sends visitors once expired, instead of the expired page. */
  fallbackUrl?: string;
  /** Targeting rules in order: the first that matches the visitor replaces the target. */
  rules?: readonly TargetingRule[];
}

/** The controls in force on a link's row, or undefined for a plain link (a fallback alone changes nothing). */
export function controlsOf(row: RedirectRow): TargetControls | undefined {
  const controls: TargetControls = {};
  if (row.password_hash !== null) controls.passwordHash = row.password_hash;
  if (row.paused) controls.paused = true;
  if (row.max_clicks !== null) controls.maxClicks = row.max_clicks;
  if (row.expires_at !== null) controls.expiresAt = row.expires_at.getTime();
  if (row.rules.length > 0) controls.rules = row.rules;
  if (Object.keys(controls).length === 0) return undefined;
  if (row.fallback_url !== null) controls.fallbackUrl = row.fallback_url;
  return controls;
}

/**
 * Until when the fast paths may redirect a controlled link as a plain one (the cache entry's `expiresAt`):
 * an expiry by time alone until it passes; a password, a pause, a click limit or targeting rules never (0).
 */
export function fastUntil(controls: TargetControls): number {
  const everyVisit =
    controls.passwordHash !== undefined ||
    controls.paused ||
    controls.maxClicks !== undefined ||
    controls.rules !== undefined;
  return everyVisit ? 0 : (controls.expiresAt ?? 0);
}

/** Wrong passwords per address and link: `blockedFor` and `wrongGuess` answer the seconds to wait, or 0. */
export interface PasswordGuesses {
  blockedFor(key: string): Promise<number>;
  wrongGuess(key: string): Promise<number>;
}

/** What the controls need of the process: the database, a secret to sign cookies with, the guess limit. */
export interface LinkControlsDeps {
  /** Takes one of the link's clicks if any is left: at most `maxClicks` ever, across every process. */
  takeClick(linkId: string, maxClicks: number): Promise<boolean>;
  /** Whether the link has a click left, taking none (for a bot, a HEAD or a prefetch). */
  hasClickLeft(linkId: string, maxClicks: number): Promise<boolean>;
  verifyPassword(hash: string, password: string): Promise<boolean>;
  guesses: PasswordGuesses;
  /** Signs the cookie that remembers a right password (the process's own secret, shared by every process). */
  cookieSecret: Buffer;
  /** PUBLIC_URL is https: the cookie is sent over https only. */
  secureCookie: boolean;
}

/** The pages the controls answer with, made by the app (its look and security headers). */
export interface ControlPages {
  /** The password form; `wrong`: the last guess was wrong. */
  password(reply: FastifyReply, page: { code: string; wrong: boolean }): FastifyReply;
  paused(reply: FastifyReply): FastifyReply;
  expired(reply: FastifyReply): FastifyReply;
  tooManyGuesses(reply: FastifyReply, retryAfterSeconds: number): FastifyReply;
}

/** How a controlled link's visit ends: the 302 to the target (and its click counted) or a page. */
export interface ControlledVisit {
  request: FastifyRequest;
  reply: FastifyReply;
  code: string;
  /**
   * Sends the 302 to the target, or to the URL of the targeting rule given (its index recorded on the
   * click), counting the click when `counted` (a GET that is no prefetch).
   */
  redirect(rule?: { index: number; url: string }): FastifyReply;
  /** Sends a 302 elsewhere (the fallback), no click counted. */
  redirectTo(url: string): FastifyReply;
  /** Whether this visit is one a click is counted for (a GET that is no prefetch). */
  counted: boolean;
  /** Answers a visit whose controls cannot be checked (the database down): leads nowhere, as a failed look-up. */
  failed(): FastifyReply;
}

/** How long a right password is remembered, per link. */
const REMEMBER_SECONDS = 24 * 60 * 60;
const COOKIE_NAME = 'sniplink_pw';

/**
 * The visit of a link with controls, on the Fastify route (the fast paths pass these links on): paused
 * first, then past its expiry time (the fallback or the expired page), then the password, and last the
 * click limit, taken only once the visitor is through every other control, so a page view never uses a
 * click.
 */
export function answerControlled(
  controls: TargetControls,
  linkId: string,
  visit: ControlledVisit,
  deps: LinkControlsDeps,
  pages: ControlPages,
): Promise<FastifyReply> {
  return checkControls(controls, linkId, visit, deps, pages).catch(() => visit.failed());
}

async function checkControls(
  controls: TargetControls,
  linkId: string,
  visit: ControlledVisit,
  deps: LinkControlsDeps,
  pages: ControlPages,
): Promise<FastifyReply> {
  const { reply } = visit;
  if (controls.paused) return pages.paused(reply);
  if (controls.expiresAt !== undefined && controls.expiresAt <= Date.now())
    return expired(controls, visit, pages);
  if (controls.passwordHash !== undefined && !remembered(visit, linkId, controls.passwordHash, deps)) {
    return pages.password(reply, { code: visit.code, wrong: false });
  }
  return redirectWithinLimit(controls, linkId, visit, deps, pages);
}

/**
 * `POST /s/{code}` with the password form: a right password sets the cookie and redirects (its click
 * counted as on a visit); a wrong one shows the form again, and past the limit of wrong guesses for this
 * address and link, 429 with Retry-After. A link without a password (removed meanwhile) is just visited.
 */
export function answerPassword(
  controls: TargetControls,
  linkId: string,
  password: string,
  visit: ControlledVisit,
  deps: LinkControlsDeps,
  pages: ControlPages,
): Promise<FastifyReply> {
  return checkPassword(controls, linkId, password, visit, deps, pages).catch(() => visit.failed());
}

async function checkPassword(
  controls: TargetControls,
  linkId: string,
  password: string,
  visit: ControlledVisit,
  deps: LinkControlsDeps,
  pages: ControlPages,
): Promise<FastifyReply> {
  const { reply, request } = visit;
  const hash = controls.passwordHash;
  if (controls.paused || hash === undefined) return checkControls(controls, linkId, visit, deps, pages);
  if (controls.expiresAt !== undefined && controls.expiresAt <= Date.now())
    return expired(controls, visit, pages);
  const key = `${request.ip}|${linkId}`;
  const blocked = await deps.guesses.blockedFor(key);
  if (blocked > 0) return pages.tooManyGuesses(reply, blocked);
  if (!(await deps.verifyPassword(hash, password))) {
    const wait = await deps.guesses.wrongGuess(key);
    if (wait > 0) return pages.tooManyGuesses(reply, wait);
    return pages.password(reply, { code: visit.code, wrong: true });
  }
  reply.header('set-cookie', rememberCookie(visit.code, linkId, hash, deps));
  return redirectWithinLimit(controls, linkId, visit, deps, pages);
}

/**
 * The redirect, within the click limit if there is one: a human click takes one of the link's clicks
 * first (atomically: at most `maxClicks` redirects across every process); a bot, a HEAD or a prefetch
 * is redirected without using one while one is left, as it is counted as no human click either.
 */
async function redirectWithinLimit(
  controls: TargetControls,
  linkId: string,
  visit: ControlledVisit,
  deps: LinkControlsDeps,
  pages: ControlPages,
): Promise<FastifyReply> {
  if (controls.maxClicks === undefined) return visit.redirect(ruleFor(controls, visit.request));
  const human = visit.counted && !isBotAgent(visit.request.headers['user-agent']);
  const allowed = human
    ? await deps.takeClick(linkId, controls.maxClicks)
    : await deps.hasClickLeft(linkId, controls.maxClicks);
  return allowed ? visit.redirect(ruleFor(controls, visit.request)) : expired(controls, visit, pages);
}

/** The targeting rule this visitor matches, from the same country and device analytics gives the click. */
function ruleFor(controls: TargetControls, request: FastifyRequest) {
  if (controls.rules === undefined) return undefined;
  const headers = request.headers;
  return matchingRule(controls.rules, {
    userAgent: headers['user-agent'],
    acceptLanguage: headers['accept-language'],
    clientIp: request.ip,
  });
}

function expired(controls: TargetControls, visit: ControlledVisit, pages: ControlPages): FastifyReply {
  return controls.fallbackUrl ? visit.redirectTo(controls.fallbackUrl) : pages.expired(visit.reply);
}

/**
 * The cookie that remembers a right password: `{until}.{signature}`, the signature an HMAC of the link,
 * the password's hash and the time, so it is good for this link only, for a day, and only while the
 * password stays the one given (a new password's hash differs). Scoped to the link's path.
 */
function rememberCookie(code: string, linkId: string, hash: string, deps: LinkControlsDeps): string {
  const until = Math.floor(Date.now() / 1000) + REMEMBER_SECONDS;
  const value = `${until}.${signature(linkId, hash, until, deps.cookieSecret)}`;
  const secure = deps.secureCookie ? '; Secure' : '';
  return `${COOKIE_NAME}=${value}; Path=/s/${code}; Max-Age=${REMEMBER_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

function signature(linkId: string, hash: string, until: number, secret: Buffer): string {
  return createHmac('sha256', secret).update(`${linkId}\n${hash}\n${until}`).digest('base64url');
}

function remembered(visit: ControlledVisit, linkId: string, hash: string, deps: LinkControlsDeps): boolean {
  const value = cookieValue(visit.request.headers.cookie, COOKIE_NAME);
  const match = value && /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return false;
  const until = Number(match[1]);
  if (until * 1000 <= Date.now()) return false;
  const expected = Buffer.from(signature(linkId, hash, until, deps.cookieSecret));
  const given = Buffer.from(match[2] as string);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One cookie's value from the Cookie header (the redirect has no cookie parser of its own: none is needed elsewhere). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * One of the link's clicks, taken by one statement: the row's lock orders concurrent takes, and the
 * `used < max` test sees the committed count, so no two processes both take the last click.
 */
export function takeClickFrom(db: Kysely<Database>) {
  return async (linkId: string, maxClicks: number): Promise<boolean> => {
    const { rows } = await sql<{ used: number }>`
      INSERT INTO link_click_uses AS uses (link_id, used) VALUES (${linkId}, 1)
      ON CONFLICT (link_id) DO UPDATE SET used = uses.used + 1 WHERE uses.used < ${maxClicks}
      RETURNING uses.used`.execute(db);
    // A first take inserts 1: within any limit of at least 1.
    return rows.length === 1;
  };
}

export function hasClickLeftIn(db: Kysely<Database>) {
  return async (linkId: string, maxClicks: number): Promise<boolean> => {
    const row = await db
      .selectFrom('link_click_uses')
      .select('used')
      .where('link_id', '=', linkId)
      .executeTakeFirst();
    return (row?.used ?? 0) < maxClicks;
  };
}
