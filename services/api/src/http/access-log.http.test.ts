import type { Link } from '@sniplink/contracts';
import { signedUpClient, startTestApi } from '@sniplink/test-support/api';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** An app whose log lines are kept, parsed; only the access log's ("request"). */
async function loggedApp(env: Record<string, string>) {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const api = await startTestApi(env, { log });
  return { api, requests: () => lines.filter((line) => line.msg === 'request') };
}

describe('the access log', () => {
  let errors: Awaited<ReturnType<typeof loggedApp>>;
  let all: Awaited<ReturnType<typeof loggedApp>>;
  beforeAll(async () => {
    [errors, all] = await Promise.all([loggedApp({}), loggedApp({ ACCESS_LOG: 'all' })]);
  });
  afterAll(async () => {
    await Promise.all([errors?.api.close(), all?.api.close()]);
  });

  it('by default logs failed requests (not 404s) with their id, method, route pattern, status and time', async () => {
    const client = errors.api.client();
    await client.get('/healthz');
    await client.get('/no/such/thing');
    expect((await client.get('/api/auth/user')).status).toBe(401);
    // The line is written once the answer is sent: it may come a moment after the client has it.
    await expect
      .poll(() => errors.requests())
      .toEqual([
        {
          level: 30,
          time: expect.any(Number),
          pid: process.pid,
          hostname: expect.any(String),
          reqId: expect.any(String),
          method: 'GET',
          route: '/api/auth/user',
          status: 401,
          ms: expect.any(Number),
          msg: 'request',
        },
      ]);
  });

  it('with ACCESS_LOG=all logs every request, each redirect too', async () => {
    const { client } = await signedUpClient(all.api, 'access');
    const link = (
      await client.post<Link>('/api/links', { originalUrl: 'https://example.com/a', title: null })
    ).body;
    // Twice: the second is answered from the link cache, where the fast paths would take it.
    for (let visit = 0; visit < 2; visit++) {
      const response = await fetch(`${all.api.baseUrl}/s/${link.shortCode}`, { redirect: 'manual' });
      expect(response.status).toBe(302);
    }
    const redirects = () => all.requests().filter((line) => line.route === '/s/:code');
    await expect.poll(() => redirects().length).toBe(2);
    expect(redirects()[1]).toMatchObject({ method: 'GET', status: 302 });
    expect(JSON.stringify(all.requests())).not.toContain(link.shortCode);
  });
});
