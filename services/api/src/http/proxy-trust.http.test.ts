import net from 'node:net';
import { Writable } from 'node:stream';
import type { ErrorBody, Link, LinkAnalytics } from '@sniplink/contracts';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';

/**
 * Proxy trust: behind TRUST_PROXY the client is the right-most X-Forwarded-For hop that is not
 * a trusted proxy. What a client writes to the left of that is its own claim, and changing it does not get
 * it past a rate limit, nor move its clicks to another country.
 */
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let emails = 0;
const unknownEmail = () => `nobody.${Date.now()}.${++emails}@example.com`;

/** A failed sign-in (an unknown address: only the per-address count can answer 429) from these hops. */
async function failedSignIn(api: TestApi, forwardedFor: string): Promise<number> {
  const response = await api.client().post<ErrorBody>(
    '/api/auth/login',
    { email: unknownEmail(), password: 'wrong password' },
    {
      'x-forwarded-for': forwardedFor,
    },
  );
  return response.status;
}

describe('TRUST_PROXY=1: one proxy in front, the client is the address it appended', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES_PER_IP: '3',
      DEMO_MAX_PER_IP: '2',
      DEMO_MAX_PER_VISITOR: '100',
    });
  });
  afterAll(() => api?.close());

  it('keeps counting failed sign-ins of one client however it changes the left-most address: 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await failedSignIn(api, `198.51.100.${i}, 203.0.113.10`));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Another client behind the same proxy has its own count.
    expect(await failedSignIn(api, '198.51.100.1, 203.0.113.11')).toBe(401);
  });

  it("keeps one client to the demo's per-address limit however it changes the left-most address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      // A fresh visitor cookie each time too: only the address can tell these apart.
      const response = await api.client().post(
        '/api/demo/shorten',
        { url: `https://example.com/${i}` },
        {
          'x-forwarded-for': `198.51.100.${i}, 203.0.113.20`,
        },
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([201, 201, 429, 429]);
  });

  it("gives a click the country of the proxy's client on the route, the request path and the connection path", async () => {
    const owner = api.client();
    await owner.post('/api/auth/register', { email: unknownEmail(), password: 'correct horse' });
    const link = (await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/x', title: null }))
      .body;
    // 8.8.8.8 (US) is the client's own claim; 81.2.69.160 (GB) is the address the proxy saw.
    const forwardedFor = '8.8.8.8, 81.2.69.160';
    const request = `GET /s/${link.shortCode} HTTP/1.1\r\nHost: a\r\nUser-Agent: ${CHROME}\r\nX-Forwarded-For: ${forwardedFor}\r\n\r\n`;
    api.runtime.linkCache.clear();
    // Not cached: Fastify's route (request.ip). Then cached: off the connection's bytes, and, split across
    // reads, on node's request before Fastify.
    expect(await send(api, [request])).toMatch(/^HTTP\/1\.1 302/);
    expect(await send(api, [request])).toMatch(/^HTTP\/1\.1 302/);
    expect(await send(api, [request.slice(0, 12), request.slice(12)])).toMatch(/^HTTP\/1\.1 302/);
    const analytics = await until(
      async () => (await owner.get<LinkAnalytics>(`/api/analytics/link/${link.id}`)).body,
      (a) => Object.values(a.countryBreakdown).reduce((sum, n) => sum + n, 0) >= 3,
    );
    expect(analytics.countryBreakdown).toEqual({ GB: 3 });
  });
});

describe('TRUST_PROXY as a list of proxy addresses and ranges', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', LOGIN_MAX_FAILURES_PER_IP: '3' });
  });
  afterAll(() => api?.close());

  it('keys a request from a trusted proxy on the right-most address that is not one: "spoofed, real"', async () => {
    // The same client, seen through the proxy alone and through an inner proxy in 10.0.0.0/8 too.
    const statuses = [
      await failedSignIn(api, '198.51.100.1, 203.0.113.30'),
      await failedSignIn(api, '198.51.100.2, 203.0.113.30, 10.1.2.3'),
      await failedSignIn(api, '203.0.113.30'),
      await failedSignIn(api, '198.51.100.3, 203.0.113.30'),
    ];
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await failedSignIn(api, '203.0.113.31')).toBe(401);
  });
});

describe('TRUST_PROXY=true', () => {
  it('still starts, with one warning in the log that any client can then choose its address', async () => {
    const lines: string[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, callback) {
          lines.push(...String(chunk).trim().split('\n'));
          callback();
        },
      }),
    );
    const trusting = await buildApp({
      log,
      readiness: {},
      allowedOrigins: [],
      trustProxy: { kind: 'every' },
    });
    const careful = await buildApp({
      log,
      readiness: {},
      allowedOrigins: [],
      trustProxy: { kind: 'hops', hops: 1 },
    });
    await Promise.all([trusting.close(), careful.close()]);
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/TRUST_PROXY=true .*any client can choose the address/);
  });
});

/** Writes the pieces on one connection (100 ms apart) and returns what the server answered. */
async function send(api: TestApi, pieces: string[]): Promise<string> {
  const socket = net.connect(Number(new URL(api.baseUrl).port), '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
  });
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(piece);
  }
  await until(
    async () => text,
    (answer) => answer.includes('\r\n\r\n'),
  );
  socket.destroy();
  return text;
}
