import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorBody } from '@sniplink/contracts';
import { startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Request bodies: a request whose head or body stops arriving is answered 408 and closed once
 * REQUEST_TIMEOUT_MS has passed (1 s here), a JSON body is at most 64 KB, and the bodies still arriving
 * hold at most 1 MB per client address and 16 MB in all. TRUST_PROXY=1 lets one test speak from many
 * client addresses (X-Forwarded-For).
 */
const TIMEOUT_MS = 1_000;
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), TRUST_PROXY: '1' });
});
afterAll(() => api?.close());

interface Connection {
  /** Everything the server wrote so far. */
  text(): string;
  /** Milliseconds from the last write to the server closing the connection; undefined while open. */
  closedAfterMs(): number | undefined;
  write(bytes: string): void;
  destroy(): void;
}

/** Opens a connection, writes `bytes` and keeps it open without writing anything more. */
async function stallAfter(bytes: string | Buffer, to: TestApi = api): Promise<Connection> {
  const socket = net.connect(Number(new URL(to.baseUrl).port), '127.0.0.1');
  let text = '';
  let closedAt: number | undefined;
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
  });
  socket.on('close', () => {
    closedAt = performance.now();
  });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  await new Promise((resolve) => socket.write(bytes, resolve));
  const wroteAt = performance.now();
  return {
    text: () => text,
    closedAfterMs: () => (closedAt === undefined ? undefined : closedAt - wroteAt),
    write: (more) => socket.write(more),
    destroy: () => socket.destroy(),
  };
}

async function closed(connection: Connection, timeoutMs = TIMEOUT_MS * 10): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (connection.closedAfterMs() === undefined && performance.now() < deadline) await sleep(20);
  const after = connection.closedAfterMs();
  connection.destroy();
  if (after === undefined) throw new Error(`still open after ${timeoutMs} ms; it read: ${connection.text()}`);
  return after;
}

/** The status line and the JSON body of the (first) answer on a connection. */
function answerOf(text: string): { status: string; body: unknown } {
  const headEnd = text.indexOf('\r\n\r\n');
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, headEnd))?.[1] ?? 0);
  const body = text.slice(headEnd + 4, headEnd + 4 + length);
  return { status: text.slice(0, text.indexOf('\r\n')), body: body ? JSON.parse(body) : undefined };
}

const uploadHead = (declared: number, forwardedFor = '203.0.113.1') =>
  'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
  `X-Forwarded-For: ${forwardedFor}\r\nContent-Length: ${declared}\r\n\r\n`;

const TIMED_OUT = {
  status: 'HTTP/1.1 408 Request Timeout',
  body: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' },
};

describe('a request that stops arriving', () => {
  it('gets 408 REQUEST_TIMEOUT and its connection closed once REQUEST_TIMEOUT_MS has passed: a body', async () => {
    const connection = await stallAfter(`${uploadHead(1_000)}{"email":"a@example.com",`);
    const after = await closed(connection);
    expect(answerOf(connection.text())).toEqual(TIMED_OUT);
    expect(after).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });

  it('a head, on the API', async () => {
    const connection = await stallAfter('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty');
    expect(await closed(connection)).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(answerOf(connection.text())).toEqual(TIMED_OUT);
  });

  it("a head of a short link's request, which the redirect's connection path hands to node", async () => {
    const connection = await stallAfter(`GET /s/spring HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: x\r\n`);
    expect(await closed(connection)).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(answerOf(connection.text())).toEqual(TIMED_OUT);
  });

  it('is not cut off while it is still in time: a body completed after half the timeout is answered', async () => {
    const body = '{"email":"a@example.com","password":"12345678"}';
    const connection = await stallAfter(`${uploadHead(body.length)}${body.slice(0, 10)}`);
    await sleep(TIMEOUT_MS / 2);
    connection.write(body.slice(10));
    await sleep(TIMEOUT_MS * 2);
    // Answered (401), and the connection stays open for the next request (keep-alive).
    expect(answerOf(connection.text()).status).toBe('HTTP/1.1 401 Unauthorized');
    expect(connection.closedAfterMs()).toBeUndefined();
    connection.destroy();
  });
});

describe('JSON bodies', () => {
  const login = (password: string) =>
    api.client().post<ErrorBody>('/api/auth/login', { email: 'a@example.com', password });

  it('refuses a body over 64 KB with 413 PAYLOAD_TOO_LARGE and takes one just under it', async () => {
    const over = await login('x'.repeat(65 * 1024));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' });
    expect((await login('x'.repeat(63 * 1024))).status).not.toBe(413);
  });
});

describe('bodies still arriving', () => {
  // An app of its own whose uploads cannot time out during a test, however slow a loaded machine is: the
  // budget, not the timeout, must be what answers here.
  let budgetApi: TestApi;
  beforeAll(async () => {
    budgetApi = await startTestApi({ REQUEST_TIMEOUT_MS: '60000', TRUST_PROXY: '1' });
  });
  afterAll(() => budgetApi?.close());

  /** An upload of 60 KB of a declared 61 KB body from `address`, then a stall. */
  const UPLOAD = 60 * 1024;
  const upload = (address: string) =>
    stallAfter(
      `${uploadHead(UPLOAD + 1024, address)}{"email":"a@example.com","password":"${'x'.repeat(UPLOAD - 38)}`,
      budgetApi,
    );
  const statusOf = (connection: Connection) => connection.text().slice(0, connection.text().indexOf('\r\n'));
  const answered = (connections: Connection[]) =>
    connections.filter((connection) => connection.text() !== '');

  /** Waits (up to 20 s) until at least `count` of the connections have an answer. */
  async function answersFrom(connections: Connection[], count: number): Promise<Connection[]> {
    const deadline = performance.now() + 20_000;
    while (answered(connections).length < count && performance.now() < deadline) await sleep(50);
    return answered(connections);
  }

  it('hold at most 1 MB per client address: the next one gets 429 at once, other addresses are served', async () => {
    const uploads: Connection[] = [];
    try {
      for (let i = 0; i < 20; i++) uploads.push(await upload('203.0.113.50'));
      // 17 uploads of 60 KB fit in 1 MB; each refused one is answered at once, the held ones are not.
      const refused = await answersFrom(uploads, 3);
      expect(refused.length).toBeGreaterThanOrEqual(3);
      expect(uploads.length - refused.length).toBeLessThanOrEqual(17);
      for (const connection of refused) {
        expect(answerOf(connection.text())).toEqual({
          status: 'HTTP/1.1 429 Too Many Requests',
          body: { code: 'RATE_LIMITED', message: expect.any(String) },
        });
        expect(connection.text()).toMatch(/\r\nretry-after: 1\r\n/i);
      }
      const other = await budgetApi
        .client()
        .post(
          '/api/auth/login',
          { email: 'a@example.com', password: 'wrong password' },
          { 'x-forwarded-for': '203.0.113.51' },
        );
      expect(other.status).toBe(401);
      // Once the held uploads end, their bytes are given back: the address is served again.
      for (const connection of uploads) connection.destroy();
      await sleep(300);
      const again = await upload('203.0.113.50');
      uploads.push(again);
      await sleep(300);
      expect(again.text()).toBe('');
    } finally {
      for (const connection of uploads) connection.destroy();
    }
  });

  it('hold at most 16 MB in all: past it, 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    const uploads: Connection[] = [];
    try {
      // 20 addresses of 15 uploads each: 300 x 60 KB, 17.6 MB.
      for (let address = 0; address < 20; address++) {
        uploads.push(
          ...(await Promise.all(Array.from({ length: 15 }, () => upload(`198.51.100.${address}`)))),
        );
      }
      const refused = await answersFrom(uploads, 300 - Math.floor((16 * 1024) / 60));
      expect(refused.length).toBeGreaterThanOrEqual(300 - Math.floor((16 * 1024) / 60));
      expect(new Set(refused.map(statusOf))).toEqual(new Set(['HTTP/1.1 503 Service Unavailable']));
      for (const connection of refused) {
        expect(answerOf(connection.text()).body).toEqual({
          code: 'SERVICE_UNAVAILABLE',
          message: 'The service is busy; please try again',
        });
        expect(connection.text()).toMatch(/\r\nretry-after: 1\r\n/i);
      }
    } finally {
      for (const connection of uploads) connection.destroy();
    }
  });
});
