import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { User } from '@sniplink/contracts';
import { userStream } from '@sniplink/contracts';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { freePort } from '@sniplink/test-support/app-process';
import { verificationLink, waitForMails } from '@sniplink/test-support/outbox';
import Provider, { type Account } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOidcLogin } from './oidc';

const CLIENT_ID = 'sniplink-test';
const CLIENT_SECRET = 'a-client-secret-for-tests';

/** The provider's people, by the login typed on its sign-in page (which is also their `sub`). */
const people = new Map<string, Record<string, unknown>>();

let provider: { issuer: string; server: Server };
let api: TestApi;

beforeAll(async () => {
  // The provider must know the app's callback URL, so the app's port is chosen before either starts.
  // Another process (or the provider itself) may take that port before the app listens: choose again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    provider = await startProvider(`${publicUrl}/api/auth/callback`);
    try {
      api = await startTestApi({
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
      });
      return;
    } catch (error) {
      provider.server.close();
      if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt === 3) throw error;
    }
  }
});
afterAll(async () => {
  await api?.close();
  provider?.server.close();
});

/** A real OpenID Connect provider on a loopback port, with its development sign-in and consent pages. */
async function startProvider(redirectUri: string): Promise<{ issuer: string; server: Server }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const oidc = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'picture'],
    },
    cookies: { keys: ['a-cookie-key-for-tests'] },
    // Set, so the provider does not print a notice for each default it falls back on.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    findAccount: (_ctx: unknown, sub: string): Account | undefined => {
      const claims = people.get(sub);
      return claims && { accountId: sub, claims: () => ({ ...claims, sub }) };
    },
  });
  server.on('request', oidc.callback());
  return { issuer, server };
}

interface Page {
  url: URL;
  status: number;
  location: URL | null;
  setCookies: string[];
  text: string;
}

/** A browser: follows nothing by itself, keeps one cookie jar per origin (enough for these two sites). */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  jar(origin: string): Map<string, string> {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    return jar;
  }

  async open(url: URL, form?: Record<string, string>): Promise<Page> {
    const jar = this.jar(url.origin);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const setCookies = response.headers.getSetCookie();
    for (const header of setCookies) storeCookie(jar, header);
    const location = response.headers.get('location');
    return {
      url,
      status: response.status,
      location: location ? new URL(location, url) : null,
      setCookies,
      text: await response.text(),
    };
  }
}

function storeCookie(jar: Map<string, string>, header: string): void {
  const [pair = '', ...attributes] = header.split(';');
  const index = pair.indexOf('=');
  const name = pair.slice(0, index).trim();
  const value = pair.slice(index + 1).trim();
  const expired = attributes.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
  if (expired || value === '') jar.delete(name);
  else jar.set(name, value);
}

const appUrl = (path: string) => new URL(path, api.baseUrl);
const isCallback = (url: URL) => url.origin === api.baseUrl && url.pathname === '/api/auth/callback';

/**
 * Walks the browser from GET /api/login through the provider's sign-in and consent pages (or cancels
 * there), and stops at the app's callback URL without opening it.
 */
async function throughProvider(
  browser: Browser,
  login: string,
  options: { returnTo?: string; cancel?: boolean } = {},
): Promise<URL> {
  const query = options.returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(options.returnTo)}`;
  let url = appUrl(`/api/login${query}`);
  for (let step = 0; step < 20; step++) {
    if (isCallback(url)) return url;
    const page = await browser.open(url);
    if (page.location) {
      url = page.location;
      continue;
    }
    const prompt = /name="prompt" value="(\w+)"/.exec(page.text)?.[1];
    if (page.status !== 200 || !prompt) throw new Error(`unexpected page ${url}: ${page.status}`);
    if (options.cancel) {
      url = new URL(`${url.pathname}/abort`, url);
      continue;
    }
    const fields: Record<string, string> =
      prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
    const submitted = await browser.open(url, fields);
    if (!submitted.location) throw new Error(`the ${prompt} form at ${url} answered ${submitted.status}`);
    url = submitted.location;
  }
  throw new Error('too many steps before the callback');
}

/** The whole round trip; answers the app's reply to the callback. */
async function signIn(browser: Browser, login: string, returnTo?: string): Promise<Page> {
  return browser.open(await throughProvider(browser, login, { returnTo }));
}

async function currentUser(browser: Browser): Promise<User | null> {
  const page = await browser.open(appUrl('/api/auth/user'));
  return page.status === 200 ? (JSON.parse(page.text) as User) : null;
}

let counter = 0;
/** A person at the provider with a verified address (unless told otherwise). */
function person(claims: Record<string, unknown> = {}) {
  const login = `person-${Date.now()}-${++counter}`;
  const email = `${login}@example.com`;
  people.set(login, { email, email_verified: true, ...claims });
  return { login, email };
}

async function linkedIdentities(userId: string) {
  const events = await api.runtime.eventStore.readStream(userStream.id(userId));
  return events.filter((event) => event.type === 'UserIdentityLinked').map((event) => event.data);
}

describe('sign-in through an OpenID Connect provider', () => {
  it('sends GET /api/login to the provider with PKCE, state and nonce, keeping returnTo on this side', async () => {
    const page = await new Browser().open(appUrl('/api/login?returnTo=%2Fsecret-place'));
    expect(page.status).toBe(302);
    const location = page.location as URL;
    expect(location.origin).toBe(provider.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${api.baseUrl}/api/auth/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
    });
    expect(location.href).not.toContain('secret-place');
  });

  it('creates an account for a new user, signs them in and lands on the returnTo path', async () => {
    const { login, email } = person({
      given_name: 'Ada',
      family_name: 'Lovelace',
      picture: 'https://images.example/ada.png',
    });
    const browser = new Browser();
    const landing = await signIn(browser, login, '/links?tab=mine');
    expect(landing.status).toBe(302);
    expect(landing.location?.href).toBe(appUrl('/links?tab=mine').href);
    expect(landing.setCookies.some((cookie) => /^sid=[A-Za-z0-9_-]{43};.*HttpOnly/i.test(cookie))).toBe(true);
    const user = await currentUser(browser);
    expect(user).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      profileImageUrl: 'https://images.example/ada.png',
    });
    // The link names the provider's subject by a keyed hash only.
    expect(await linkedIdentities(user?.id ?? '')).toEqual([
      { issuer: provider.issuer, subjectHash: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ]);

    // Signing in again finds the same account, and records the link once.
    const again = new Browser();
    expect((await signIn(again, login)).location?.pathname).toBe('/');
    expect((await currentUser(again))?.id).toBe(user?.id);
    expect(await linkedIdentities(user?.id ?? '')).toHaveLength(1);
  });

  it('never joins a password account whose address is unconfirmed: the user is asked to sign in with the password', async () => {
    // Someone registers another person's address with a password of their own…
    const { login, email } = person({ given_name: 'Victim' });
    const squatter = await api.client().post<User>('/api/auth/register', {
      email,
      password: 'squatter password',
    });
    expect(squatter.status).toBe(201);
    // …the address's owner then signs in through the provider: refused, with no session of that account.
    const browser = new Browser();
    const landing = await signIn(browser, login);
    expect(landing.location?.href).toBe(appUrl('/login?error=verify-first').href);
    expect(landing.setCookies.some((cookie) => cookie.startsWith('sid='))).toBe(false);
    expect(await currentUser(browser)).toBeNull();
    expect(await linkedIdentities(squatter.body.id)).toEqual([]);
    expect(await api.runtime.accounts.findUserIdByEmail(email)).toBe(squatter.body.id);
  });

  it('joins an existing password account with the same verified e-mail once its address is confirmed', async () => {
    const { login, email } = person({ given_name: 'Someone', family_name: 'Else' });
    const client = api.client();
    const registered = await client.post<User>('/api/auth/register', {
      email: email.toUpperCase(),
      password: 'correct horse',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    expect(registered.status).toBe(201);
    expect((await signIn(new Browser(), login)).location?.href).toBe(
      appUrl('/login?error=verify-first').href,
    );

    // The link mailed at sign-up (read from the outbox, as its reader would).
    const [mail = ''] = await waitForMails(api.config.dataDir, email.toUpperCase(), 1);
    const link = verificationLink(mail);
    const confirmed = await client.get(`${link.pathname}${link.search}`);
    expect(confirmed.headers.get('location')).toBe('/home?emailVerified=1');

    const browser = new Browser();
    expect((await signIn(browser, login)).location?.pathname).toBe('/');
    const user = await currentUser(browser);
    expect(user?.id).toBe(registered.body.id);
    // The account keeps its own names; the password still works.
    expect(user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', emailVerified: true });
    expect(await linkedIdentities(registered.body.id)).toHaveLength(1);
    const password = await api.client().post('/api/auth/login', { email, password: 'correct horse' });
    expect(password.status).toBe(200);
  });

  it('counts an account made through the provider as confirmed', async () => {
    const { login } = person();
    const browser = new Browser();
    await signIn(browser, login);
    expect((await currentUser(browser))?.emailVerified).toBe(true);
  });

  it('refuses an address the provider has not verified, and never links it to the account holding it', async () => {
    const { login, email } = person({ email_verified: false });
    const registered = await api
      .client()
      .post<User>('/api/auth/register', { email, password: 'correct horse' });
    const browser = new Browser();
    const landing = await signIn(browser, login);
    expect(landing.location?.href).toBe(appUrl('/login?error=unverified').href);
    expect(await currentUser(browser)).toBeNull();
    expect(await linkedIdentities(registered.body.id)).toEqual([]);

    // Nor does a missing e-mail_verified count as verified, or create an account.
    const unsure = person({ email_verified: undefined });
    const other = new Browser();
    expect((await signIn(other, unsure.login)).location?.href).toBe(appUrl('/login?error=unverified').href);
    expect(await api.runtime.accounts.findUserIdByEmail(unsure.email)).toBeNull();
  });

  it('uses each state once: a replayed or unknown state is refused', async () => {
    const { login } = person();
    const browser = new Browser();
    const callback = await throughProvider(browser, login);
    const stateCookie = `oidc_state=${browser.jar(api.baseUrl).get('oidc_state')}`;
    expect((await browser.open(callback)).location?.pathname).toBe('/');

    for (const url of [callback, withState(callback, 'made-up-state')]) {
      const replay = await fetch(url, { redirect: 'manual', headers: { cookie: stateCookie } });
      expect(replay.headers.get('location')).toBe('/login?error=oidc');
      expect(replay.headers.getSetCookie().some((cookie) => cookie.startsWith('sid='))).toBe(false);
    }
    const bare = await new Browser().open(appUrl('/api/auth/callback'));
    expect(bare.location?.href).toBe(appUrl('/login?error=oidc').href);
  });

  it('refuses the callback in a browser that did not start the sign-in, which can still finish it', async () => {
    const { login } = person();
    const starter = new Browser();
    const callback = await throughProvider(starter, login);
    const victim = new Browser();
    expect((await victim.open(callback)).location?.href).toBe(appUrl('/login?error=oidc').href);
    expect(await currentUser(victim)).toBeNull();
    expect((await starter.open(callback)).location?.pathname).toBe('/');
    expect(await currentUser(starter)).not.toBeNull();
  });

  it('refuses a sign-in that took longer than ten minutes', async () => {
    const { login } = person();
    const browser = new Browser();
    const callback = await throughProvider(browser, login);
    await api.runtime.database.db
      .updateTable('oidc_logins')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('state', '=', callback.searchParams.get('state') ?? '')
      .execute();
    expect((await browser.open(callback)).location?.href).toBe(appUrl('/login?error=oidc').href);
    expect(await currentUser(browser)).toBeNull();
  });

  it('sends a returnTo of another site to /', async () => {
    for (const returnTo of ['https://evil.example', '//evil.example/x', '/\\evil.example']) {
      const { login } = person();
      const landing = await signIn(new Browser(), login, returnTo);
      expect(landing.status).toBe(302);
      expect(landing.location?.href).toBe(appUrl('/').href);
    }
  });

  it('refuses a suspended account', async () => {
    const { login } = person();
    const browser = new Browser();
    await signIn(browser, login);
    const user = await currentUser(browser);
    await api.runtime.accounts.suspend(user?.id ?? '', null);
    const again = new Browser();
    const landing = await signIn(again, login);
    expect(landing.location?.href).toBe(appUrl('/login?error=suspended').href);
    expect(landing.setCookies.some((cookie) => cookie.startsWith('sid='))).toBe(false);
    expect(await currentUser(again)).toBeNull();
  });

  it('leads back to the sign-in page when the user cancels at the provider', async () => {
    const { login } = person();
    const browser = new Browser();
    const callback = await throughProvider(browser, login, { cancel: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect((await browser.open(callback)).location?.href).toBe(appUrl('/login?error=oidc').href);
  });
});

describe('the provider address', () => {
  it('refuses a provider reached over plain http unless it is on a loopback address', () => {
    const deps = { ...api.runtime, cookie: { secure: false }, db: api.runtime.database.db };
    const withIssuer = (issuer: string) => () =>
      createOidcLogin({ ...deps, issuer, clientId: CLIENT_ID, redirectUri: `${api.baseUrl}/cb` });
    expect(withIssuer('http://id.example')).toThrow(/loopback/);
    for (const issuer of ['https://id.example', 'http://localhost:9', 'http://127.0.0.1:9', 'http://[::1]:9'])
      expect(withIssuer(issuer)).not.toThrow();
  });
});

function withState(url: URL, state: string): URL {
  const copy = new URL(url);
  copy.searchParams.set('state', state);
  return copy;
}
