import type { Server } from 'node:http';
import { Socket } from 'node:net';
import type { Logger } from '@sniplink/platform';
import type { ClickBuffer } from './click-buffer';
import { clientAddress, type TrustedHop } from './client-address';
import type { LinkCache, RedirectTarget } from './link-cache';
import { countRedirect } from './redirect-count';
import { countClick, isExpired, REDIRECT_CACHE_CONTROL, type RedirectHeaders } from './redirect-route';

export interface ConnectionRedirectDeps {
  cache: Pick<LinkCache, 'peek'>;
  clicks: ClickBuffer;
  /** TRUST_PROXY's hop test, the one Fastify's `request.ip` applies; undefined: no proxy is trusted. */
  trustedHop: TrustedHop | undefined;
  /** Written after Location and Cache-Control, as `createFastRedirect` has node write them. */
  headers: RedirectHeaders;
}

/** REDIRECT_FAST_PATH: `off` leaves every redirect to the Fastify route. */
export type RedirectFastPath = 'on' | 'off';

/** What is missing of the node internals the connection path relies on, or undefined when all are there. */
export type NodeInternalsProbe = (server: Server) => string | undefined;

/**
 * This file is the one place that reaches into node's internals: node's own `connection` listener (taken
 * off the server and called later), a socket's `_handle` (marked `_consumed`), and the server's
 * `closeIdleConnections`/`closeAllConnections` (wrapped). A node release may rename any of them, so they
 * are looked for before the path is installed.
 */
export const missingNodeInternals: NodeInternalsProbe = (server) => {
  const listeners = server.listeners('connection');
  if (listeners.length !== 1 || listeners[0]?.name !== 'connectionListener') {
    return "node's HTTP server has no single connection listener of its own (connectionListener)";
  }
  // node's Socket sets `_handle` (null until connected) in its constructor; the hand-over marks it
  // `_consumed`, a flag node's parser sets and reads, which no socket has before a connection.
  if (!('_handle' in new Socket())) return 'net.Socket has no _handle';
  if (typeof server.closeIdleConnections !== 'function' || typeof server.closeAllConnections !== 'function') {
    return 'the HTTP server has no closeIdleConnections or closeAllConnections';
  }
  return undefined;
};

export interface FastPathOptions {
  setting: RedirectFastPath;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Tests pass one that reports something missing; the app uses `missingNodeInternals`. */
  probe?: NodeInternalsProbe;
}

/**
 * Puts the connection path in front of node's HTTP server when REDIRECT_FAST_PATH is on and node still has
 * the internals it needs; otherwise leaves the server as node made it and says why in one log line.
 * Whether the path was installed.
 */
export function offerRedirectsOnConnections(
  server: Server,
  deps: ConnectionRedirectDeps,
  options: FastPathOptions,
): boolean {
  if (options.setting === 'off') {
    options.log.info('REDIRECT_FAST_PATH=off: every redirect is answered by the Fastify route');
    return false;
  }
  const missing = (options.probe ?? missingNodeInternals)(server);
  if (missing !== undefined) {
    options.log.warn(
      `redirect fast path off: ${missing} (node ${process.version}); redirects are answered on node's request and by the Fastify route`,
    );
    return false;
  }
  answerRedirectsOnConnections(server, deps);
  return true;
}

/**
 * The redirect of a cached link read straight off the connection, before node's HTTP server sees it.
 *
 * node's HTTP server spends ~13 µs of event loop on a request that only needs a 302 (its parser's
 * callbacks, the request and response streams, header objects and checks, ticks); on a two-core machine
 * shared with the load, that and not our own work set the redirect's ceiling. This reads the bytes of a
 * request in the one shape a browser or a load generator sends for a short link, answers it with the
 * same bytes node would send, and hands everything else to node: the connection's listener is node's own
 * after that, with the unread bytes given to its parser, and it stays node's for the rest of its life.
 *
 * Taken here, and nothing else: a request complete in the bytes read so far; `GET /s/{code}` with an
 * optional query of printable ASCII, `HTTP/1.1`; every header line `token: value` with no CR, LF or
 * control character in it, at most 16 KB in all (node's limit), a `Host` header, no body (no
 * `Content-Length`, `Transfer-Encoding`), no `Upgrade` or `Expect`, no purpose header (`Sec-Purpose`,
 * `Purpose`, `X-Purpose`, `X-Moz`: prefetches are not counted), `Connection` only as `keep-alive`;
 * a code in the link cache and not expired. A request split across reads, anything malformed or unusual,
 * and every other path goes to node exactly as it arrived, so node's limits, errors and timeouts apply to
 * it unchanged. A connection answered here is closed after the server's keep-alive timeout without a
 * request, when the client closes its side, and by `closeIdleConnections` (a server's `close`).
 */
function answerRedirectsOnConnections(server: Server, deps: ConnectionRedirectDeps): void {
  // node's own, the only one (`missingNodeInternals` looked).
  const nodeListener = server.listeners('connection')[0] as (socket: Socket) => void;
  const handOver = (socket: Socket) => {
    // node reads a socket it has never seen through its parser in C++, straight from the handle; this one
    // has been read through the stream, so node must read it the same way, in order, from the stream.
    const handle = (socket as Socket & { _handle?: { _consumed?: boolean } })._handle;
    if (handle) handle._consumed = true;
    Reflect.apply(nodeListener, server, [socket]);
  };
  const open = new Set<RedirectConnection>();
  const afterLocation = afterLocationLines(deps.headers);
  server.removeListener('connection', nodeListener);
  server.on('connection', (socket: Socket) => {
    const connection = new RedirectConnection(socket, {
      ...deps,
      afterLocation,
      keepAliveMs: server.keepAliveTimeout,
      handOver,
      forget: () => open.delete(connection),
    });
    open.add(connection);
  });
  // node's `close` ends its idle connections through these; ours are idle between reads.
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    for (const connection of open) connection.end();
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    closeAll();
    for (const connection of open) connection.destroy();
  };
}

/**
 * The lines of a redirect from Location's CRLF to the Date header's name, the same for every redirect of
 * a server: what node writes for `redirectHeadersWith(headers)` in redirect-route.ts.
 */
function afterLocationLines(headers: RedirectHeaders): string {
  const lines = Object.entries(headers).map(([name, value]) => {
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) throw new Error(`not a header: ${name}`);
    return `${name}: ${value}\r\n`;
  });
  return `\r\ncache-control: ${REDIRECT_CACHE_CONTROL}\r\n${lines.join('')}content-length: 0\r\nDate: `;
}

interface ConnectionDeps extends ConnectionRedirectDeps {
  /** `afterLocationLines(headers)`, made once per server. */
  afterLocation: string;
  keepAliveMs: number;
  handOver(socket: Socket): void;
  forget(): void;
}

/** node's default `maxHeaderSize`: a longer head goes to node, which answers 431. */
const MAX_HEAD_LENGTH = 16 * 1024;
/** The request line taken here; the code is group 1. The query, if any, is printable ASCII. */
const REQUEST_LINE = /GET \/s\/([0-9A-Za-z_-]{1,64})(?:\?[!-~]*)? HTTP\/1\.1\r\n/y;
/** Header lines as RFC 9110 has them (token, colon, value of visible characters, spaces and tabs), then the blank line. */
const HEADER_LINES = /(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t -~\x80-\xff]*\r\n)*\r\n/y;
/**
 * Headers after which the request is not one this file answers (in the lower-cased head). A purpose
 * header (a prefetch or preview, redirected but not counted: `isSpeculative`) is left to the route too.
 */
const NOT_OURS =
  /\r\n(?:content-length|transfer-encoding|upgrade|expect|sec-purpose|purpose|x-purpose|x-moz):/;
/** What node may send in a header value; a target with anything else is left to node. */
const HEADER_VALUE = /^[\t -~\x80-\xff]*$/;
/** A header name (RFC 9110's token); node writes it as given. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

class RedirectConnection {
  /** This file's listeners on the socket, taken off when node takes the connection over. */
  private readonly listeners: Record<string, (chunk: Buffer) => void> = {
    data: (chunk: Buffer) => this.read(chunk),
    drain: () => this.socket.resume(),
    end: () => this.socket.end(),
    timeout: () => this.socket.destroy(),
    error: () => this.socket.destroy(),
    close: () => this.deps.forget(),
  };
  private readonly keepAliveHeader: string;
  private clientIpOfSocket: string | undefined;
  private ended = false;

  constructor(
    private readonly socket: Socket,
    private readonly deps: ConnectionDeps,
  ) {
    this.keepAliveHeader = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(deps.keepAliveMs / 1000)}\r\n\r\n`;
    socket.setTimeout(deps.keepAliveMs);
    for (const [event, listener] of Object.entries(this.listeners)) socket.on(event, listener);
  }

  /** Closes the connection once what was written is sent (a server closing). */
  end(): void {
    this.ended = true;
    this.socket.end(() => this.socket.destroy());
  }

  destroy(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    if (this.ended) return;
    // latin1: one character per byte, so offsets in the text are offsets in the chunk (node, too, reads
    // header values as latin1).
    const text = chunk.toString('latin1');
    let at = 0;
    let responses = '';
    while (at < text.length) {
      const next = this.answer(text, at);
      if (next === -1) break;
      responses += next.response;
      at = next.end;
    }
    if (at < text.length) {
      if (responses !== '') this.socket.write(responses, 'latin1');
      this.handOver(chunk.subarray(at));
    } else if (!this.socket.write(responses, 'latin1')) {
      // The client is not reading its answers: read no more requests until it has.
      this.socket.pause();
    }
  }

  /** Answers the request at `at` if it is one of ours: its response and where the next request starts; else -1. */
  private answer(text: string, at: number): { response: string; end: number } | -1 {
    REQUEST_LINE.lastIndex = at;
    const requestLine = REQUEST_LINE.exec(text);
    if (requestLine === null) return -1;
    const headersAt = REQUEST_LINE.lastIndex;
    const blankLineAt = text.indexOf('\r\n\r\n', headersAt - 2);
    if (blankLineAt === -1 || blankLineAt + 4 - at > MAX_HEAD_LENGTH) return -1;
    const end = blankLineAt + 4;
    HEADER_LINES.lastIndex = headersAt;
    if (!HEADER_LINES.test(text) || HEADER_LINES.lastIndex !== end) return -1;
    // From the request line's CRLF to the last header's: every header name follows a CRLF.
    const head = text.slice(headersAt - 2, blankLineAt + 2);
    const lowerHead = head.toLowerCase();
    if (NOT_OURS.test(lowerHead) || !lowerHead.includes('\r\nhost:') || !keepsAlive(head, lowerHead)) {
      return -1;
    }
    const code = requestLine[1] as string;
    const target = this.deps.cache.peek(code.toLowerCase());
    if (target === undefined || isExpired(target) || !HEADER_VALUE.test(target.target)) return -1;
    countClick(
      this.deps.clicks,
      target,
      code,
      firstValue(head, lowerHead, '\r\nuser-agent:'),
      firstValue(head, lowerHead, '\r\nreferer:'),
      this.clientIp(head, lowerHead),
    );
    countRedirect();
    return { response: this.response(target), end };
  }

  /** The client's address by the rule `request.ip` follows (`clientAddress`). */
  private clientIp(head: string, lowerHead: string): string | undefined {
    if (this.deps.trustedHop === undefined) {
      this.clientIpOfSocket ??= this.socket.remoteAddress;
      return this.clientIpOfSocket;
    }
    const forwardedFor = joinedValues(head, lowerHead, '\r\nx-forwarded-for:');
    return clientAddress(this.deps.trustedHop, this.socket.remoteAddress, forwardedFor);
  }

  /** The bytes node sends for `writeHead(302, redirectHeaders(target))` and `end()` on a kept-alive connection. */
  private response(target: RedirectTarget): string {
    return `HTTP/1.1 302 Found\r\nlocation: ${target.target}${this.deps.afterLocation}${httpDate()}\r\n${this.keepAliveHeader}`;
  }

  private handOver(unread: Buffer): void {
    const socket = this.socket;
    for (const [event, listener] of Object.entries(this.listeners)) socket.removeListener(event, listener);
    socket.setTimeout(0);
    this.deps.forget();
    this.deps.handOver(socket);
    // node's listener is on the socket now: the bytes not answered here are the first it reads.
    socket.emit('data', unread);
  }
}

/** Every `Connection` header says `keep-alive` (HTTP/1.1's default); `close` and the rest go to node. */
function keepsAlive(head: string, lowerHead: string): boolean {
  return valuesOf(head, lowerHead, '\r\nconnection:').every((value) => value.toLowerCase() === 'keep-alive');
}

/** The first header of this name (`\r\nname:`, lower-case), as node keeps it for User-Agent and Referer. */
function firstValue(head: string, lowerHead: string, name: string): string | undefined {
  const at = lowerHead.indexOf(name);
  return at === -1 ? undefined : valueAt(head, at + name.length);
}

/** Every header of this name, joined with ", " as node joins X-Forwarded-For. */
function joinedValues(head: string, lowerHead: string, name: string): string | undefined {
  const values = valuesOf(head, lowerHead, name);
  return values.length === 0 ? undefined : values.join(', ');
}

/** The values of every header of this name (`\r\nname:`, lower-case), in order. */
function valuesOf(head: string, lowerHead: string, name: string): string[] {
  const values: string[] = [];
  for (let at = lowerHead.indexOf(name); at !== -1; at = lowerHead.indexOf(name, at + name.length)) {
    values.push(valueAt(head, at + name.length));
  }
  return values;
}

/** The value from `from` to the line's end, without the spaces and tabs around it (as node's parser). */
function valueAt(head: string, from: number): string {
  let start = from;
  let end = head.indexOf('\r\n', from);
  while (start < end && isSpaceOrTab(head.charCodeAt(start))) start++;
  while (end > start && isSpaceOrTab(head.charCodeAt(end - 1))) end--;
  return head.slice(start, end);
}

const isSpaceOrTab = (code: number) => code === 0x20 || code === 0x09;

let dateHeader = '';
let dateUntil = 0;
/** The Date header's value, made once a second as node makes it. */
function httpDate(): string {
  const now = Date.now();
  if (now >= dateUntil) {
    dateHeader = new Date(now).toUTCString();
    dateUntil = now - (now % 1000) + 1000;
  }
  return dateHeader;
}
