import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ErrorBody } from '@sniplink/contracts';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let api: TestApi;
let dataDir: string;
beforeAll(async () => {
  // No SMTP_URL: mail goes to DATA_DIR/outbox, which the tests read as a user would.
  dataDir = await mkdtemp(path.join(tmpdir(), 'sniplink-reset-'));
  await chmod(dataDir, 0o755);
  api = await startTestApi({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await api?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const OLD_PASSWORD = 'correct horse';
const NEW_PASSWORD = 'battery staple';
let counter = 0;
const uniqueEmail = (name = 'reset') => `${name}.${Date.now()}.${++counter}@example.com`;

async function signUp(email = uniqueEmail()) {
  const client = api.client();
  const response = await client.post('/api/auth/register', { email, password: OLD_PASSWORD });
  expect(response.status).toBe(201);
  return { client, email };
}

async function requestReset(email: string) {
  const response = await api.client().post('/api/auth/password-reset', { email });
  expect(response.status).toBe(202);
  expect(response.body).toEqual({ ok: true });
}

const confirm = (token: string, password = NEW_PASSWORD) =>
  api.client().post<ErrorBody>('/api/auth/password-reset/confirm', { token, password });

const signIn = (email: string, password: string) =>
  api.client().post<ErrorBody>('/api/auth/login', { email, password });

/** The outbox messages addressed to `email`, oldest first (file names start with the time). */
async function mailsTo(email: string): Promise<string[]> {
  const outbox = path.join(dataDir, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const texts = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
  // Sign-up mails a confirmation link too: only the reset mails count here.
  return texts.filter(
    (text) => text.includes(`\r\nTo: ${email}\r\n`) && text.includes('Subject: Reset your Sniplink password'),
  );
}

/** The mail is sent after the 202, so poll briefly for it. */
async function waitForMails(email: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await mailsTo(email);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s), found ${mails.length}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function resetLink(mail: string): { link: string; token: string } {
  const match = /(\S+\/reset-password\?token=([A-Za-z0-9_-]+))/.exec(mail);
  if (!match?.[1] || !match[2]) throw new Error('no reset link in the mail');
  return { link: match[1], token: match[2] };
}

async function requestAndReadLink(email: string) {
  const before = (await mailsTo(email)).length;
  await requestReset(email);
  const mails = await waitForMails(email, before + 1);
  return resetLink(mails.at(-1) ?? '');
}

describe('password reset over HTTP, mail through the outbox', () => {
  it('mails a link that sets a new password, ends the old sessions and retires the old password', async () => {
    const { client: first, email } = await signUp();
    const second = api.client();
    expect((await second.post('/api/auth/login', { email, password: OLD_PASSWORD })).status).toBe(200);

    // Any case of the address finds the account; the mail goes to the address the account holds.
    await requestReset(email.toUpperCase());
    const [mail = ''] = await waitForMails(email, 1);
    expect(mail).toContain('Subject: Reset your Sniplink password');
    expect(mail).toContain('within the next hour');
    const { link, token } = resetLink(mail);
    expect(link).toBe(`${api.config.publicUrl}/reset-password?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const response = await confirm(token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });

    const signedIn = await signIn(email, NEW_PASSWORD);
    expect(signedIn.status).toBe(200);
    // The link reached the address's holder: that confirms the address as the confirmation link would.
    expect(signedIn.body).toMatchObject({ emailVerified: true });
    const old = await signIn(email, OLD_PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('INVALID_CREDENTIALS');
    expect((await first.get('/api/auth/user')).status).toBe(401);
    expect((await second.get('/api/auth/user')).status).toBe(401);
  });

  it('stores only a hash of the token, expiring in an hour', async () => {
    const { email } = await signUp();
    const { token } = await requestAndReadLink(email);
    const row = await api.database.db
      .selectFrom('password_reset_tokens')
      .select(['token_hash', sql<number>`extract(epoch from expires_at - created_at)::int`.as('lifetime')])
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .executeTakeFirstOrThrow();
    expect(row.lifetime).toBe(3600);
    const raw = await api.database.db
      .selectFrom('password_reset_tokens')
      .select('token_hash')
      .where('token_hash', '=', token)
      .executeTakeFirst();
    expect(raw).toBeUndefined();
  });

  it('lets a link work once: a second confirm is 400 INVALID_TOKEN', async () => {
    const { email } = await signUp();
    const { token } = await requestAndReadLink(email);
    expect((await confirm(token)).status).toBe(200);
    const again = await confirm(token, 'yet another one');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      code: 'INVALID_TOKEN',
      message: 'This reset link is invalid or has expired',
    });
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('retires the other unused links once one has been used', async () => {
    const { email } = await signUp();
    const older = await requestAndReadLink(email);
    const newer = await requestAndReadLink(email);
    expect((await confirm(newer.token)).status).toBe(200);
    expect((await confirm(older.token)).body.code).toBe('INVALID_TOKEN');
  });

  it('refuses an expired link and an unknown token alike', async () => {
    const { email } = await signUp();
    const { token } = await requestAndReadLink(email);
    await api.database.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .execute();
    const expired = await confirm(token);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('INVALID_TOKEN');
    const unknown = await confirm('A'.repeat(43));
    expect(unknown.body).toEqual(expired.body);
    expect((await signIn(email, OLD_PASSWORD)).status).toBe(200);
  });

  it('refuses a short new password with 400 naming the field, and leaves the link usable', async () => {
    const { email } = await signUp();
    const { token } = await requestAndReadLink(email);
    const short = await confirm(token, 'short');
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'password must be at least 8 characters',
      field: 'password',
    });
    expect((await confirm(token)).status).toBe(200);
  });

  it('answers an unknown address exactly like a known one, and mails nothing', async () => {
    const email = uniqueEmail('nobody');
    const lookup = vi.spyOn(api.runtime.accounts, 'findUserIdByEmail');
    try {
      await requestReset(email);
      // The background work ends with the lookup when no account holds the address.
      await vi.waitUntil(() => lookup.mock.results.length > 0, { timeout: 5_000, interval: 10 });
      expect(await lookup.mock.results[0]?.value).toBeNull();
    } finally {
      lookup.mockRestore();
    }
    expect(await mailsTo(email)).toEqual([]);
  });

  it('refuses a malformed request with 400 naming the field', async () => {
    const missing = await api.client().post<ErrorBody>('/api/auth/password-reset', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'email' });
    const noToken = await api
      .client()
      .post<ErrorBody>('/api/auth/password-reset/confirm', { password: NEW_PASSWORD });
    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ field: 'token' });
  });

  it('mails at most 3 links per account per hour; the 4th request still answers 202', async () => {
    const { email } = await signUp();
    for (let i = 0; i < 3; i++) await requestReset(email);
    await waitForMails(email, 3);
    const info = vi.spyOn(api.runtime.log, 'info');
    try {
      await requestReset(email);
      const throttled = () => info.mock.calls.some((call) => String(call[1]).includes('mail limit reached'));
      await vi.waitUntil(throttled, { timeout: 5_000, interval: 10 });
    } finally {
      info.mockRestore();
    }
    expect(await mailsTo(email)).toHaveLength(3);
  });
});
