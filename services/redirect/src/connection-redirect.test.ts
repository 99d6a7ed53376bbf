import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Click, readClickMessage } from '@sniplink/contracts';
import { createLogger, type StreamMessage, type TrustProxy } from '@sniplink/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { ClickBuffer } from './click-buffer';
import { trustedHop } from './client-address';
import {
  type NodeInternalsProbe,
  offerRedirectsOnConnections,
  type RedirectFastPath,
} from './connection-redirect';
import type { RedirectTarget } from './link-cache';
import { createFastRedirect } from './redirect-route';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const links = new Map<string, RedirectTarget>([
  ['spring', { linkId: randomUUID(), target: 'https://example.com/spring?utm=1' }],
  ['summer', { linkId: randomUUID(), target: 'https://example.com/summer' }],
  ['old', { linkId: randomUUID(), target: 'https://example.com/old', expiresAt: Date.now() - 1 }],
]);
const cache = { peek: (code: string) => links.get(code) };
/** The app's security headers for an https site (api/http/security-headers.ts): part of node's bytes too. */
const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000',
};

interface Server {
  port: number;
  clicks: ClickBuffer;
  /** The clicks published so far, in order. */
  published: Click[];
  /** The requests node's own handler saw (method and URL): everything the connection path left to node. */
  nodeSaw: string[];
  /** Requests node parsed, the request-level fast path's included. */
  nodeParsed: number;
  /** What `offerRedirectsOnConnections` logged: level and message. */
  logged: string[];
  server: http.Server;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const { server, clicks } of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await clicks.close();
  }
});

/**
 * A server shaped as the app's (api/app.ts): node's request handler tries the request-level fast path,
 * then answers 404 itself (the app's Fastify), saying what it saw; `connections` offers the connection
 * path (REDIRECT_FAST_PATH, default on), `probe` stands in for the look for node's internals.
 */
async function startServer(
  options: {
    connections?: RedirectFastPath;
    probe?: NodeInternalsProbe;
    trustProxy?: TrustProxy;
    keepAliveMs?: number;
  } = {},
) {
  const published: Click[] = [];
  const clicks = new ClickBuffer({
    stream: {
      publish: async (messages: StreamMessage<string>[]) => {
        for (const message of messages) published.push(readClickMessage(message.key, message.value) as Click);
      },
    },
    log: createLogger('silent'),
    lingerMs: 0,
  });
  const nodeSaw: string[] = [];
  const trusted = trustedHop(options.trustProxy ?? { kind: 'none' });
  const fast = createFastRedirect({ cache, clicks, trustedHop: trusted, headers: securityHeaders });
  const server = http.createServer((request, response) => {
    entry.nodeParsed++;
    if (fast(request, response)) return;
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      nodeSaw.push(`${request.method} ${request.url}${body ? ` body=${body}` : ''}`);
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not here');
    });
  });
  server.keepAliveTimeout = options.keepAliveMs ?? 72_000;
  const logged: string[] = [];
  const log = {
    info: (message: string) => logged.push(`info: ${message}`),
    warn: (message: string) => logged.push(`warn: ${message}`),
  };
  const onConnections = offerRedirectsOnConnections(
    server,
    { cache, clicks, trustedHop: trusted, headers: securityHeaders },
    { setting: options.connections ?? 'on', log, probe: options.probe },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const entry = { port: 0, clicks, published, nodeSaw, nodeParsed: 0, logged, onConnections, server };
  entry.port = (server.address() as AddressInfo).port;
  servers.push(entry);
  return entry;
}

const get = (path: string, headers = `Host: snip.example\r\nUser-Agent: ${CHROME}\r\n`) =>
  `GET ${path} HTTP/1.1\r\n${headers}\r\n`;

/**
 * Writes each piece on one connection (pieces apart by `gapMs`), then reads until the server closes or is
 * quiet for 200 ms. The text read, and whether the server closed the connection.
 */
async function talk(port: number, pieces: string[], options: { gapMs?: number; endAfter?: boolean } = {}) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let text = '';
  let closed = false;
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && options.gapMs) await sleep(options.gapMs);
    socket.write(piece, 'latin1');
  }
  if (options.endAfter) socket.end();
  let seen = -1;
  while (!closed && seen !== text.length) {
    seen = text.length;
    await sleep(200);
  }
  socket.destroy();
  return { text, closed };
}

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

const statusLines = (text: string) => text.match(/^HTTP\/1\.1 \d{3} [^\r]*/gm) ?? [];
const withoutDate = (text: string) => text.replace(/\r\nDate: [^\r]*/g, '\r\nDate: -');

describe('the redirect read off the connection', () => {
  it("answers a cached code with node's own bytes, without node parsing it, and counts the click", async () => {
    const ours = await startServer();
    const nodes = await startServer({ connections: 'off' });
    const request = get(
      '/s/Spring?ref=mail',
      `Host: snip.example\r\nUser-Agent: ${CHROME}\r\nReferer: https://news.ycombinator.com/item\r\n`,
    );
    const answered = await talk(ours.port, [request]);
    const byNode = await talk(nodes.port, [request]);
    expect(withoutDate(answered.text)).toBe(withoutDate(byNode.text));
    expect(answered.text).toMatch(
      /^HTTP\/1\.1 302 Found\r\nlocation: https:\/\/example\.com\/spring\?utm=1\r\ncache-control: private, no-store\r\nx-content-type-options: nosniff\r\nreferrer-policy: strict-origin-when-cross-origin\r\nstrict-transport-security: max-age=31536000\r\ncontent-length: 0\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n$/,
    );
    expect(answered.closed).toBe(false);
    await ours.clicks.flush();
    expect(ours.published).toEqual([
      expect.objectContaining({
        linkId: links.get('spring')?.linkId,
        code: 'Spring',
        browser: 'Chrome',
        os: 'Windows',
        device: 'desktop',
        referrer: 'news.ycombinator.com',
        bot: false,
      }),
    ]);
  });

  it('answers requests sent together in order, one click each, and keeps the connection', async () => {
    const server = await startServer();
    const { text, closed } = await talk(server.port, [
      get('/s/spring') + get('/s/SPRING') + get('/s/spring?x=1'),
    ]);
    expect(statusLines(text)).toEqual(['HTTP/1.1 302 Found', 'HTTP/1.1 302 Found', 'HTTP/1.1 302 Found']);
    expect(closed).toBe(false);
    await server.clicks.flush();
    expect(server.published.map((click) => click.code)).toEqual(['spring', 'SPRING', 'spring']);
    expect(server.nodeSaw).toEqual([]);
  });

  it('answers a long pipeline that straddles reads: each request once, in order, counted once', async () => {
    const server = await startServer();
    const client = net.connect(server.port, '127.0.0.1');
    const requests = 20_000;
    // ~3 MB sent at once: the server reads it in many chunks, a request cut at the end of most, and the
    // client reads nothing for a while.
    const code = (i: number) => (i % 3 === 0 ? 'summer' : 'spring');
    client.write(Array.from({ length: requests }, (_, i) => get(`/s/${code(i)}?n=${i}`)).join(''));
    await sleep(300);
    let text = '';
    client.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    await until(() => statusLines(text).length >= requests, 20_000);
    await sleep(100);
    client.destroy();
    expect(statusLines(text)).toEqual(Array(requests).fill('HTTP/1.1 302 Found'));
    const locations = text.match(/^location: .*$/gm)?.map((line) => line.slice(30).replace(/\?.*/, ''));
    expect(locations).toEqual(Array.from({ length: requests }, (_, i) => code(i)));
    await server.clicks.flush();
    expect(server.published).toHaveLength(requests);
    expect(server.nodeSaw).toEqual([]);
  });

  it('hands the rest of a connection to node at the first request it does not take, answers in order', async () => {
    const server = await startServer();
    const { text } = await talk(server.port, [
      get('/s/spring') + get('/api/links') + get('/s/spring'),
      get('/s/nobody'),
    ]);
    expect(statusLines(text)).toEqual([
      'HTTP/1.1 302 Found',
      'HTTP/1.1 404 Not Found',
      'HTTP/1.1 302 Found', // node's request, the request-level fast path
      'HTTP/1.1 404 Not Found',
    ]);
    expect(server.nodeSaw).toEqual(['GET /api/links', 'GET /s/nobody']);
    await server.clicks.flush();
    expect(server.published).toHaveLength(2);
  });

  it('leaves a request split across reads to node, which answers it once', async () => {
    const server = await startServer();
    const request = get('/s/spring');
    const { text } = await talk(server.port, [request.slice(0, 20), request.slice(20)], { gapMs: 50 });
    expect(statusLines(text)).toEqual(['HTTP/1.1 302 Found']);
    await server.clicks.flush();
    expect(server.published).toHaveLength(1);
  });

  it('leaves unknown, expired and other requests to node: other methods, HTTP/1.0, percent-encoding', async () => {
    const server = await startServer();
    const requests = [
      get('/s/nobody'),
      get('/s/old'),
      get('/s/spring/extra'),
      get('/s/spr%69ng'),
      'HEAD /s/spring HTTP/1.1\r\nHost: a\r\n\r\n',
      'GET /s/spring HTTP/1.0\r\nHost: a\r\n\r\n',
    ];
    for (const request of requests) await talk(server.port, [request]);
    expect(server.nodeSaw).toEqual([
      'GET /s/nobody',
      'GET /s/old',
      'GET /s/spring/extra',
      'GET /s/spr%69ng',
      'HEAD /s/spring',
    ]);
    await server.clicks.flush();
    // The HTTP/1.0 GET is node's, and its request-level fast path answers and counts it.
    expect(server.published).toHaveLength(1);
  });

  it.each([
    ['Sec-Purpose: prefetch'],
    ['Sec-Purpose: prefetch;prerender'],
    ['sec-purpose: prefetch;anonymous-client-ip'],
    ['Purpose: prefetch'],
    ['X-Purpose: preview'],
    ['X-Moz: prefetch'],
  ])(
    'counts no prefetch (%s): both fast paths leave it to the route, on one connection with clicks',
    async (purpose) => {
      const server = await startServer();
      const prefetch = get('/s/spring', `Host: a\r\nUser-Agent: ${CHROME}\r\n${purpose}\r\n`);
      const { text } = await talk(server.port, [get('/s/spring') + prefetch + get('/s/spring')]);
      // The route (node's handler here) answers it: a 404 from this stand-in, a 302 from the app's route.
      expect(statusLines(text)).toEqual([
        'HTTP/1.1 302 Found',
        'HTTP/1.1 404 Not Found',
        'HTTP/1.1 302 Found',
      ]);
      expect(server.nodeSaw).toEqual(['GET /s/spring']);
      await server.clicks.flush();
      expect(server.published).toHaveLength(2);
    },
  );

  it('never reads a body as a request: Content-Length and Transfer-Encoding go to node', async () => {
    const server = await startServer();
    const smuggled = get('/s/spring');
    const withLength = await talk(server.port, [
      `GET /api/x HTTP/1.1\r\nHost: a\r\nContent-Length: ${smuggled.length}\r\n\r\n${smuggled}`,
    ]);
    const chunked = await talk(server.port, [
      `GET /s/spring HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`,
    ]);
    // One answer each: node read the request inside as the body it is.
    expect(statusLines(withLength.text)).toEqual(['HTTP/1.1 404 Not Found']);
    expect(statusLines(chunked.text)).toEqual(['HTTP/1.1 302 Found']);
    expect(server.nodeSaw).toEqual([`GET /api/x body=${smuggled}`]);
    await server.clicks.flush();
    expect(server.published).toHaveLength(1); // the chunked GET, by node's request-level fast path
  });

  it.each([
    ['a space before the colon', 'Host: a\r\nUser-Agent : x\r\n'],
    ['a line folded onto the next', 'Host: a\r\nUser-Agent: x\r\n  y\r\n'],
    ['a bare LF', 'Host: a\nUser-Agent: x\r\n'],
    ['no Host', `User-Agent: ${CHROME}\r\n`],
  ])('leaves a malformed head to node, which refuses it (%s)', async (_case, headers) => {
    const server = await startServer();
    const { text, closed } = await talk(server.port, [get('/s/spring', headers)]);
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
    expect(closed).toBe(true);
    await server.clicks.flush();
    expect(server.published).toEqual([]);
  });

  it('leaves a head over 16 KB to node, which answers 431', async () => {
    const server = await startServer();
    const { text } = await talk(server.port, [
      get('/s/spring', `Host: a\r\nCookie: ${'x'.repeat(17_000)}\r\n`),
    ]);
    expect(statusLines(text)).toEqual(['HTTP/1.1 431 Request Header Fields Too Large']);
  });

  it('leaves Connection: close to node, which answers and closes', async () => {
    const server = await startServer();
    const { text, closed } = await talk(server.port, [get('/s/spring', 'Host: a\r\nConnection: close\r\n')]);
    expect(statusLines(text)).toEqual(['HTTP/1.1 302 Found']);
    expect(text).toContain('Connection: close');
    expect(closed).toBe(true);
  });

  describe("the client address (a click's country) by TRUST_PROXY, on the connection path and on node's request alike", () => {
    // A client wrote 8.8.8.8 (US); the proxy in front appended the address it saw, 81.2.69.160 (GB).
    const forwarded = 'Host: a\r\nX-Forwarded-For: 8.8.8.8\r\nX-Forwarded-For: 81.2.69.160\r\n';
    /** The countries of one request taken off the connection and one split across reads (node's request). */
    async function countries(trustProxy: TrustProxy | undefined, headers = forwarded): Promise<string[]> {
      const server = await startServer({ trustProxy });
      const [head, tail] = [get('/s/spring', headers).slice(0, 20), get('/s/spring', headers).slice(20)];
      await talk(server.port, [get('/s/spring', headers)]);
      await talk(server.port, [head, tail], { gapMs: 100 });
      await server.clicks.flush();
      expect(server.nodeSaw).toEqual([]);
      return server.published.map((click) => click.country);
    }

    it("ignores X-Forwarded-For when no proxy is trusted: the socket's peer is the client", async () => {
      expect(await countries(undefined)).toEqual(['Unknown', 'Unknown']);
    });

    it('behind one trusted hop takes the right-most address, whatever the client wrote to its left', async () => {
      expect(await countries({ kind: 'hops', hops: 1 })).toEqual(['GB', 'GB']);
    });

    it('behind trusted proxy addresses skips every trusted hop from the right', async () => {
      const through = 'Host: a\r\nX-Forwarded-For: 8.8.8.8, 81.2.69.160, 10.0.0.7\r\n';
      const trust: TrustProxy = { kind: 'addresses', addresses: ['127.0.0.1', '10.0.0.0/8'] };
      expect(await countries(trust, through)).toEqual(['GB', 'GB']);
    });

    it('with TRUST_PROXY=true believes the left-most address (the warned-about old rule)', async () => {
      expect(await countries({ kind: 'every' })).toEqual(['US', 'US']);
    });
  });

  it('counts a request without a User-Agent as a bot, as the route does', async () => {
    const server = await startServer();
    await talk(server.port, [get('/s/spring', 'Host: a\r\n')]);
    await server.clicks.flush();
    expect(server.published.map((click) => click.bot)).toEqual([true]);
  });

  it('answers a client that sends its request and closes its side, then closes', async () => {
    const server = await startServer();
    const { text, closed } = await talk(server.port, [get('/s/spring')], { endAfter: true });
    expect(statusLines(text)).toEqual(['HTTP/1.1 302 Found']);
    expect(closed).toBe(true);
  });

  it("closes a connection idle for the server's keep-alive timeout", async () => {
    const server = await startServer({ keepAliveMs: 300 });
    const socket = net.connect(server.port, '127.0.0.1');
    socket.write(get('/s/spring'));
    const closedAfter = await new Promise<number>((resolve) => {
      const started = performance.now();
      socket.on('data', () => {});
      socket.on('close', () => resolve(performance.now() - started));
    });
    expect(closedAfter).toBeGreaterThan(250);
    expect(closedAfter).toBeLessThan(2_000);
  });

  it('ends its idle connections when the server closes, so close() does not wait for the keep-alive timeout', async () => {
    const server = await startServer();
    const socket = net.connect(server.port, '127.0.0.1');
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.on('data', () => {});
    socket.write(get('/s/spring'));
    await sleep(100);
    const started = performance.now();
    await new Promise((resolve) => server.server.close(resolve));
    await closed;
    expect(performance.now() - started).toBeLessThan(1_000);
    servers.splice(servers.indexOf(server), 1);
    await server.clicks.close();
  });
});

describe('REDIRECT_FAST_PATH and the node internals the connection path needs', () => {
  const spring = get('/s/spring');
  const location = 'location: https://example.com/spring?utm=1\r\n';

  it('finds them on this node: the connection path answers and node parses nothing', async () => {
    const server = await startServer();
    const { text } = await talk(server.port, [spring]);
    expect(text).toContain(location);
    expect(server.onConnections).toBe(true);
    expect(server.nodeParsed).toBe(0);
    expect(server.logged).toEqual([]);
  });

  it('falls back when one is missing: one warning naming it, node parses, the redirect still counted', async () => {
    const server = await startServer({ probe: () => 'net.Socket has no _handle' });
    const { text } = await talk(server.port, [spring + spring]);
    expect(statusLines(text)).toEqual(['HTTP/1.1 302 Found', 'HTTP/1.1 302 Found']);
    expect(text).toContain(location);
    expect(server.onConnections).toBe(false);
    expect(server.nodeParsed).toBe(2);
    expect(server.logged).toHaveLength(1);
    expect(server.logged[0]).toMatch(/^warn: redirect fast path off: net\.Socket has no _handle \(node v\d+/);
    await server.clicks.flush();
    expect(server.published).toHaveLength(2);
  });

  it('stays out when the setting is off, with one line that says so', async () => {
    let probed = false;
    const server = await startServer({
      connections: 'off',
      probe: () => {
        probed = true;
        return undefined;
      },
    });
    const { text } = await talk(server.port, [spring]);
    expect(text).toContain(location);
    expect(server.nodeParsed).toBe(1);
    expect(probed).toBe(false);
    expect(server.logged).toEqual([
      'info: REDIRECT_FAST_PATH=off: every redirect is answered by the Fastify route',
    ]);
  });
});
