import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { DemoLink, Link } from '@sniplink/contracts';
import { withReadModels } from '@sniplink/projections';
import { type HttpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let distDir: string;
let plain: TestApi;
let secure: TestApi;
beforeAll(async () => {
  distDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-headers-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(
    path.join(distDir, 'index.html'),
    '<!doctype html><title>Sniplink</title><div id="root"></div>',
  );
  await writeFile(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  // As the build writes them: the asset answers compressed, through the same headers.
  await writeFile(path.join(distDir, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
  await writeFile(path.join(distDir, 'assets', 'index-abc123.js.gz'), gzipSync('console.log(1)'));
  // The default PUBLIC_URL (http://localhost:PORT), and a site served over https.
  plain = await startTestApi({}, { webDistDir: distDir });
  secure = await startTestApi({ PUBLIC_URL: 'https://snip.example.com' }, { webDistDir: distDir });
});
afterAll(async () => {
  await plain?.close();
  await secure?.close();
  await rm(distDir, { recursive: true, force: true });
});

let accounts = 0;
async function linkOf(api: TestApi): Promise<{ client: HttpClient; link: Link }> {
  const client = api.client();
  const email = `headers.${Date.now()}.${++accounts}@example.com`;
  expect((await client.post('/api/auth/register', { email, password: 'correct horse' })).status).toBe(201);
  const created = await client.post<Link>('/api/links', {
    originalUrl: 'https://example.com/to',
    title: null,
  });
  expect(created.status).toBe(201);
  return { client, link: created.body };
}

/** The status and headers (lower-case names) of one request written as it is on a connection of its own. */
async function rawHead(
  api: TestApi,
  request: string,
): Promise<{ status: number; headers: Map<string, string> }> {
  const { port } = new URL(api.baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
  });
  socket.write(request, 'latin1');
  const deadline = Date.now() + 10_000;
  while (!text.includes('\r\n\r\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  socket.destroy();
  const [statusLine = '', ...lines] = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
  const headers = new Map(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers };
}

/**
 * A cached link's redirect on each of its three paths: read off the connection (a kept-alive request),
 * on node's request (`Connection: close`), and by the Fastify route (a percent-encoded code).
 */
async function redirectsOnEveryPath(api: TestApi, code: string) {
  api.runtime.linkCache.clear();
  const host = 'Host: snip.example.com\r\n';
  const route = await rawHead(api, `GET /s/${code} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
  const connection = await rawHead(api, `GET /s/${code} HTTP/1.1\r\n${host}\r\n`);
  const node = await rawHead(api, `GET /s/${code} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
  const encoded = [...code].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
  const percentEncoded = await rawHead(api, `GET /s/${encoded} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
  return { 'first visit (route)': route, connection, node, 'percent-encoded (route)': percentEncoded };
}

type HeaderSource = { get(name: string): string | null | undefined };

/**
 * The security headers of an answer, as `expected` has them: every answer carries nosniff and the referrer
 * policy, and HSTS on an https site; every answer but a redirect also forbids framing (CSP and XFO).
 */
function securityHeadersOf(headers: HeaderSource, document: boolean) {
  const policy = headers.get('content-security-policy') ?? '';
  return {
    nosniff: headers.get('x-content-type-options'),
    referrerPolicy: headers.get('referrer-policy'),
    hsts: headers.get('strict-transport-security') ?? null,
    ...(document
      ? {
          frameAncestors: /frame-ancestors 'none'/.test(policy),
          frameOptions: headers.get('x-frame-options'),
        }
      : {}),
  };
}

function expected(https: boolean, document: boolean) {
  return {
    nosniff: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    hsts: https ? 'max-age=31536000' : null,
    ...(document ? { frameAncestors: true, frameOptions: 'DENY' } : {}),
  };
}

/** Every kind of answer other than a redirect, made on the given app: [what, response]. */
async function everyKindOfAnswer(api: TestApi) {
  const anyone = api.client();
  const { client } = await linkOf(api);
  const visitor = api.client();
  const demo = await visitor.post<DemoLink>('/api/demo/shorten', { url: 'https://example.com/demo' });
  await withReadModels(api.runtime.database.db)
    .updateTable('rm_links')
    .set({ created_at: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) })
    .where('link_id', '=', demo.body.id)
    .execute();
  api.runtime.linkCache.clear();
  const answers = [
    ['the landing page', await anyone.get('/'), 200],
    ['the signed-in dashboard', await client.get('/home'), 200],
    ['an asset of the web app', await anyone.get('/assets/index-abc123.js'), 200],
    ['the not-found page', await anyone.get('/no-such-page'), 404],
    ['an unknown short code', await anyone.get('/s/nosuchcode1'), 404],
    ['an expired demo link', await anyone.get(new URL(demo.body.shortUrl).pathname), 410],
    ['API JSON', await client.get('/api/links'), 200],
    ['an API error', await anyone.get('/api/auth/user'), 401],
    ['an unknown API path', await anyone.get('/api/no-such-thing'), 404],
    ['a malformed JSON body', await client.post('/api/links', '{"originalUrl":'), 400],
    ['a path that is not percent-encoding', await anyone.get('/s/%E0%A4%A'), 400],
    ['the API docs page', await anyone.get('/api/docs'), 200],
    ['/healthz', await anyone.get('/healthz'), 200],
    ['/readyz', await anyone.get('/readyz'), 200],
  ] as const;
  return answers.map(([what, response, status]) => ({ what, response, status }));
}

describe('security headers on a plain-http site', () => {
  it('every answer but a redirect: nosniff, the referrer policy, no framing; no HSTS', async () => {
    for (const { what, response, status } of await everyKindOfAnswer(plain)) {
      expect({ what, status: response.status, ...securityHeadersOf(response.headers, true) }).toEqual({
        what,
        status,
        ...expected(false, true),
      });
    }
  });

  it("the web app's policy: scripts of its own only, nothing inline; fetches to this site", async () => {
    const policy = (await plain.client().get('/')).headers.get('content-security-policy') ?? '';
    const directives = new Map(
      policy.split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('script-src-attr')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.has('upgrade-insecure-requests')).toBe(false);
  });

  it('a redirect on every path: nosniff and the referrer policy, the same headers on each; no HSTS', async () => {
    const { link } = await linkOf(plain);
    const answers = await redirectsOnEveryPath(plain, link.shortCode);
    const reference = answers.connection;
    for (const [path, answer] of Object.entries(answers)) {
      expect({ path, status: answer.status, ...securityHeadersOf(answer.headers, false) }).toEqual({
        path,
        status: 302,
        ...expected(false, false),
      });
      expect({ path, headers: comparable(answer.headers) }).toEqual({
        path,
        headers: comparable(reference.headers),
      });
    }
  });
});

describe('security headers on an https site (PUBLIC_URL https://…)', () => {
  it('HSTS on every answer, the redirect on every path included', async () => {
    for (const { what, response, status } of await everyKindOfAnswer(secure)) {
      expect({ what, status: response.status, ...securityHeadersOf(response.headers, true) }).toEqual({
        what,
        status,
        ...expected(true, true),
      });
    }
    const { link } = await linkOf(secure);
    for (const [path, answer] of Object.entries(await redirectsOnEveryPath(secure, link.shortCode))) {
      expect({ path, status: answer.status, ...securityHeadersOf(answer.headers, false) }).toEqual({
        path,
        status: 302,
        ...expected(true, false),
      });
    }
  });

  it('pages ask the browser to load everything over https', async () => {
    const policy = (await secure.client().get('/')).headers.get('content-security-policy');
    expect(policy).toContain('upgrade-insecure-requests');
  });
});

/** The headers a redirect's answer carries whatever the connection: all but Date, Connection, Keep-Alive. */
function comparable(headers: Map<string, string>) {
  return [...headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)).sort();
}
