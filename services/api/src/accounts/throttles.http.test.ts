import type { ErrorBody, User } from '@sniplink/contracts';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOWDOWN_MAX_MS } from './login-throttle';

let api: TestApi;
beforeAll(async () => {
  // The documented defaults (an empty variable counts as unset); clients are told apart by
  // X-Forwarded-For, which the app believes behind a proxy.
  api = await startTestApi({
    TRUST_PROXY: 'true',
    SIGNUP_MAX_PER_IP: '',
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '',
    LOGIN_MAX_FAILURES_PER_IP: '',
  });
});
afterAll(() => api?.close());

const PASSWORD = 'correct horse';
let counter = 0;
const uniqueEmail = (name = 'user') => `${name}.${Date.now()}.${++counter}@example.com`;
let addresses = 0;
/** A client address nobody has used yet in this file (TEST-NET-3 and documentation IPv6). */
const freshAddress = () => {
  addresses += 1;
  return addresses % 2 ? `203.0.113.${addresses % 250}` : `2001:db8::${addresses.toString(16)}`;
};

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const register = (ip: string, body: Record<string, unknown>) =>
  api.client().post<ErrorBody>('/api/auth/register', body, from(ip));
const signIn = (ip: string, email: string, password: string) =>
  api.client().post<User & ErrorBody>('/api/auth/login', { email, password }, from(ip));

async function account(): Promise<string> {
  const email = uniqueEmail();
  expect((await register(freshAddress(), { email, password: PASSWORD })).status).toBe(201);
  return email;
}

describe('sign-up, limited per client address (SIGNUP_MAX_PER_IP, default 10 an hour)', () => {
  it('answers 429 RATE_LIMITED with Retry-After past 10 attempts (a 409 counts, a malformed one does not)', async () => {
    const ip = freshAddress();
    expect((await register(ip, { email: 'not an address', password: PASSWORD })).status).toBe(400);
    const taken = await account();
    const statuses: number[] = [];
    statuses.push((await register(ip, { email: taken, password: PASSWORD })).status);
    for (let i = 0; i < 9; i++)
      statuses.push((await register(ip, { email: uniqueEmail(), password: PASSWORD })).status);
    expect(statuses).toEqual([409, ...Array(9).fill(201)]);

    const refusedEmail = uniqueEmail('eleventh');
    const refused = await register(ip, { email: refusedEmail, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    // Nothing was made for the refused attempt, and another address still signs up.
    expect(await api.runtime.accounts.findUserIdByEmail(refusedEmail)).toBeNull();
    expect((await register(freshAddress(), { email: refusedEmail, password: PASSWORD })).status).toBe(201);
  });
});

describe('failed sign-ins (LOGIN_MAX_FAILURES_PER_ACCOUNT 5, LOGIN_MAX_FAILURES_PER_IP 50)', () => {
  it('refuses a sixth wrong password from one address, while the owner signs in from another', async () => {
    const email = await account();
    const attacker = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(attacker, email, `wrong ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const stillRefused = await signIn(attacker, email, PASSWORD);
    expect(stillRefused.status).toBe(429);
    expect(stillRefused.body.code).toBe('RATE_LIMITED');
    expect(Number(stillRefused.headers.get('retry-after'))).toBeGreaterThan(0);

    const owner = await signIn(freshAddress(), email, PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.body.email).toBe(email);
  });

  it('slows an account down when failures come from many addresses, but never refuses its owner', async () => {
    const email = await account();
    // Sent at once: each is counted before its password is checked, so parallel guesses wait in turn.
    const guesses = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const started = Date.now();
        const guess = await signIn(freshAddress(), email, `wrong ${i}`);
        return { status: guess.status, tookMs: Date.now() - started };
      }),
    );
    expect(guesses.map((guess) => guess.status)).toEqual(Array(8).fill(401));
    // Five free failures, then 0.5 s, 1 s, 2 s.
    expect(Math.max(...guesses.map((guess) => guess.tookMs))).toBeGreaterThanOrEqual(1_500);

    // The right password from a fresh address waits too (at most SLOWDOWN_MAX_MS), then signs in.
    const started = Date.now();
    const owner = await signIn(freshAddress(), email, PASSWORD);
    expect(owner.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SLOWDOWN_MAX_MS - 500);
  });

  it('answers an account without failures at once', async () => {
    const email = await account();
    const started = Date.now();
    expect((await signIn(freshAddress(), email, PASSWORD)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(SLOWDOWN_MAX_MS - 500);
  });

  it('refuses an address guessing across many accounts once it has had 50 failures', async () => {
    const email = await account();
    const guesser = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++)
      statuses.push((await signIn(guesser, uniqueEmail('nobody'), 'guess')).status);
    expect(statuses).toEqual(Array(50).fill(401));
    const refused = await signIn(guesser, email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect((await signIn(freshAddress(), email, PASSWORD)).status).toBe(200);
  });
});
