import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { afterAll, describe, expect, it } from 'vitest';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('SIGTERM while redirecting', () => {
  let dataDir: string;
  let app: AppProcess | undefined;
  afterAll(async () => {
    await app?.stop('SIGTERM');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('counts, after a restart, every click that was answered with a 302 before the stop', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-sigterm-'));
    await chmod(dataDir, 0o755);
    const env = { DATABASE_URL: undefined, DATA_DIR: dataDir };
    app = await startAppProcess(env);
    const cookie = await signUp(app.baseUrl);
    const link = await post(
      app.baseUrl,
      '/api/links',
      { originalUrl: 'https://example.com/', title: null },
      cookie,
    );
    // Redirects in flight right up to the signal: count only those answered with a 302.
    let answered = 0;
    const load = Array.from({ length: 16 }, async () => {
      for (;;) {
        const response = await fetch(`${app?.baseUrl}/s/${link.shortCode}`, {
          redirect: 'manual',
          headers: { 'user-agent': BROWSER },
        }).catch(() => undefined);
        if (!response) return;
        if (response.status === 302) answered += 1;
        else return;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await app.stop('SIGTERM')).toBe(0);
    await Promise.all(load);
    expect(answered).toBeGreaterThan(100);

    app = await startAppProcess(env);
    const restartedCookie = await signIn(app.baseUrl);
    const deadline = Date.now() + 15_000;
    let counted = -1;
    while (Date.now() < deadline) {
      const links = (await get(app.baseUrl, '/api/links', restartedCookie)) as { clickCount: number }[];
      counted = links[0]?.clickCount ?? -1;
      if (counted >= answered) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(counted).toBe(answered);
  }, 120_000);
});

const EMAIL = `sigterm.${Date.now()}@example.com`;

async function signUp(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: 'correct horse' }),
  });
  expect(response.status).toBe(201);
  return sessionCookie(response);
}

async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: 'correct horse' }),
  });
  expect(response.status).toBe(200);
  return sessionCookie(response);
}

const sessionCookie = (response: Response) => (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';

async function post(baseUrl: string, url: string, body: unknown, cookie: string) {
  const response = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { shortCode: string };
}

async function get(baseUrl: string, url: string, cookie: string) {
  return (await fetch(`${baseUrl}${url}`, { headers: { cookie } })).json();
}
