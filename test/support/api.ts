import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { PaymentProvider } from '@sniplink/api';
import { type Config, createLogger, type Logger, loadConfig } from '@sniplink/platform';
import { clicksBehind, linkClickTotals } from '@sniplink/projections';
import { expect } from 'vitest';
import { startApp } from '../../services/standalone/src/composition';
import type { Runtime } from '../../services/standalone/src/runtime';
import { createTestDatabase, type TestDatabase } from './database';
import { madeOnce } from './lifecycle';
import { until } from './until';

export interface TestApi {
  baseUrl: string;
  runtime: Runtime;
  database: TestDatabase;
  config: Config;
  /** A browser-like client with its own cookie jar. */
  client(): HttpClient;
  close(): Promise<void>;
}

/**
 * The real app (runtime + HTTP) on a database of its own, listening on a loopback port: tests talk to it
 * over real HTTP, as a browser would. `env.PORT` picks the port (see `freePort()`); unset, any free one.
 * `webDistDir`: serve the web app built there too (by default the API alone); `payments`: the payment
 * provider the plans and payments routes use; `log`: where the app logs (by default nowhere).
 */
export async function startTestApi(
  env: Record<string, string> = {},
  options: { webDistDir?: string; payments?: PaymentProvider; log?: Logger } = {},
): Promise<TestApi> {
  // Migrated already: the app's own migration at its start finds nothing left to do.
  const database = await createTestDatabase();
  // A DATA_DIR of its own unless the test names one: the click spill and the outbox are per process.
  const ownDataDir = env.DATA_DIR ? undefined : await mkdtemp(path.join(os.tmpdir(), 'sniplink-api-'));
  const config = loadConfig({
    DATABASE_URL: database.connectionString,
    DATA_DIR: ownDataDir,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    // Every test signs up from 127.0.0.1; a test of the sign-up limit sets its own.
    SIGNUP_MAX_PER_IP: '100000',
    // Tests call one route many times as one user; a test of the per-user write limits sets 1.
    WRITE_LIMIT_SCALE: '1000',
    ...env,
  });
  const log = options.log ?? createLogger('silent');
  const { app, runtime } = await startApp(config, log, options);
  // A caller that must know the address up front (say, to register a callback URL with an identity
  // provider) passes PORT (and PUBLIC_URL); otherwise any free port will do.
  await app.listen({ port: env.PORT ? config.port : 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    runtime,
    database,
    config,
    client: () => new HttpClient(baseUrl),
    close: async () => {
      await app.close();
      await runtime.stop();
      await database.drop();
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What the read model counts for `linkId` once every click answered so far is published and the analytics
 * consumer has caught up with all of them: so the count is final.
 */
export async function countedClicks(
  api: TestApi,
  linkId: string,
): Promise<{ clicks: number; botClicks: number }> {
  const { runtime } = api;
  await runtime.clickBuffer.flush();
  const behind = await until(
    async () => clicksBehind(runtime.database.db, await runtime.clickStream.endOffsets()),
    (clicks) => clicks === 0,
    15_000,
  );
  expect(behind, 'clicks the analytics consumer has not counted').toBe(0);
  return linkClickTotals(runtime.database.db, linkId);
}

/** A test file's app and its signed-up admin, readable from the file's first test on. */
export interface ApiWithAdmin {
  readonly api: TestApi;
  /** Signed in as the admin. */
  readonly admin: HttpClient;
  readonly adminId: string;
}

/**
 * The app of a test file whose tests act as an admin: registers a beforeAll that starts it with `adminEmail`
 * in ADMIN_EMAILS (`env` adds to or overrides that) and signs that admin up, and an afterAll that closes it.
 * `start`: how the app starts, given that env (by default `startTestApi` with `payments`).
 */
export function testApiWithAdmin(
  adminEmail: string,
  options: {
    env?: Record<string, string>;
    payments?: PaymentProvider;
    start?: (env: Record<string, string>) => Promise<TestApi>;
  } = {},
): ApiWithAdmin {
  const made = madeOnce(
    async () => {
      const env = { ADMIN_EMAILS: adminEmail, ...options.env };
      const api = await (options.start ?? ((env) => startTestApi(env, { payments: options.payments })))(env);
      const admin = await signedUpAdmin(api, adminEmail).catch(async (error: unknown) => {
        await api.close();
        throw error;
      });
      return { api, admin };
    },
    ({ api }) => api.close(),
  );
  return {
    get api() {
      return made().api;
    },
    get admin() {
      return made().admin.client;
    },
    get adminId() {
      return made().admin.userId;
    },
  };
}

let signUps = 0;
/** A new password account, signed in on a client of its own; `label` starts its (run-unique) e-mail address. */
export function signedUpClient(api: TestApi, label: string): Promise<SignedUp> {
  return signedUpAs(api, `${label}.${Date.now()}.${++signUps}@example.com`);
}

/**
 * The account of `email`, an address the app's ADMIN_EMAILS names, signed up with a password: the app
 * makes it an admin as it signs up, and the client is signed in as that admin.
 */
export function signedUpAdmin(api: TestApi, email: string): Promise<SignedUp> {
  return signedUpAs(api, email);
}

export interface SignedUp {
  client: HttpClient;
  userId: string;
}

/** Signs `email` up with the password every test account has; anything but 201 fails the test's set-up. */
async function signedUpAs(api: TestApi, email: string): Promise<SignedUp> {
  const client = api.client();
  const response = await client.post<{ id: string }>('/api/auth/register', {
    email,
    password: 'correct horse',
  });
  if (response.status !== 201) throw new Error(`Sign-up answered ${response.status}: ${response.text}`);
  return { client, userId: response.body.id };
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** fetch with a cookie jar (enough of one for a single site) and JSON bodies. */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get<T = unknown>(path: string, headers: Record<string, string> = {}) {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = unknown>(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request<T>('POST', path, body, headers);
  }

  patch<T = unknown>(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request<T>('PATCH', path, body, headers);
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResponse<T>> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const setCookie of response.headers.getSetCookie()) this.storeCookie(setCookie);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  private storeCookie(header: string): void {
    const [pair = '', ...attributes] = header.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expired = attributes.some(
      (a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a),
    );
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}
