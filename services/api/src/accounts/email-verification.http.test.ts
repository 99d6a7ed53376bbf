import { createHash } from 'node:crypto';
import type { ErrorBody, User } from '@sniplink/contracts';
import { userStreamId } from '@sniplink/domain';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { mailsTo, verificationLink, waitForMails } from '@sniplink/test-support/outbox';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ PUBLIC_URL: 'https://snip.example' });
});
afterAll(() => api?.close());

let counter = 0;
const uniqueEmail = () => `verify.${Date.now()}.${++counter}@example.com`;

async function signUp() {
  const client = api.client();
  const email = uniqueEmail();
  const response = await client.post<User>('/api/auth/register', { email, password: 'correct horse' });
  expect(response.status).toBe(201);
  const [mail = ''] = await waitForMails(api.config.dataDir, email, 1);
  return { client, email, user: response.body, mail };
}

/** Opens the mailed link as the browser would, on this app (the mail names PUBLIC_URL). */
async function open(client: HttpClient, link: URL) {
  expect(link.origin).toBe('https://snip.example');
  return client.get(`${link.pathname}${link.search}`);
}

const me = async (client: HttpClient) => (await client.get<User>('/api/auth/user')).body;

describe('e-mail verification', () => {
  it('mails a link at sign-up that confirms the address: the user then shows emailVerified', async () => {
    const { client, user, mail } = await signUp();
    expect(user.emailVerified).toBe(false);
    expect(mail).toMatch(/Subject: Confirm your e-mail address for Sniplink/);

    const landing = await open(client, verificationLink(mail));
    expect(landing.status).toBe(302);
    expect(landing.headers.get('location')).toBe('/home?emailVerified=1');
    expect((await me(client)).emailVerified).toBe(true);
    const events = await api.runtime.eventStore.readStream(userStreamId(user.id));
    expect(events.filter((event) => event.type === 'UserEmailVerified')).toHaveLength(1);
  });

  it('works once; a used, expired or made-up link says so, and a signed-out browser lands on /login', async () => {
    const { client, mail } = await signUp();
    const link = verificationLink(mail);
    const signedOut = api.client();
    expect((await open(signedOut, link)).headers.get('location')).toBe('/login?emailVerified=1');
    expect((await open(client, link)).headers.get('location')).toBe('/home?emailVerified=expired');
    expect((await signedOut.get('/api/auth/verify-email?token=made-up')).headers.get('location')).toBe(
      '/login?emailVerified=expired',
    );
    expect((await signedOut.get('/api/auth/verify-email')).headers.get('location')).toBe(
      '/login?emailVerified=expired',
    );

    const other = await signUp();
    const token = verificationLink(other.mail).searchParams.get('token') ?? '';
    await api.database.db
      .updateTable('email_verification_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .execute();
    expect((await open(other.client, verificationLink(other.mail))).headers.get('location')).toBe(
      '/home?emailVerified=expired',
    );
    expect((await me(other.client)).emailVerified).toBe(false);
    expect((await me(client)).emailVerified).toBe(true);
  });

  it('mails the link again on request, three mails an hour at most; none once confirmed', async () => {
    const { client, email, mail } = await signUp();
    for (let i = 0; i < 2; i++) {
      const again = await client.post('/api/auth/resend-verification');
      expect(again.status).toBe(202);
    }
    const mails = await waitForMails(api.config.dataDir, email, 3);
    const refused = await client.post<ErrorBody>('/api/auth/resend-verification');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_000);

    // Every link mailed works (the latest, say); once confirmed, another mail is a 409.
    expect(verificationLink(mails[2] ?? '').href).not.toBe(verificationLink(mail).href);
    expect((await open(client, verificationLink(mails[2] ?? ''))).headers.get('location')).toBe(
      '/home?emailVerified=1',
    );
    const confirmed = await client.post<ErrorBody>('/api/auth/resend-verification');
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.code).toBe('CONFLICT');
    expect(await mailsTo(api.config.dataDir, email)).toHaveLength(3);
  });

  it('asks for a session before mailing again', async () => {
    const response = await api.client().post<ErrorBody>('/api/auth/resend-verification');
    expect(response.status).toBe(401);
  });
});
