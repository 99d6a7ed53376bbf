import { isIP, isIPv4 } from 'node:net';
import type { Click } from '@sniplink/contracts';
import Bowser from 'bowser';
import geoip from 'geoip-country';
import { isbot } from 'isbot';

export interface ClickInput {
  id: string;
  linkId: string;
  code: string;
  atMs: number;
  userAgent: string | undefined;
  /** The Referer header as sent. */
  referer: string | undefined;
  /** The address the app trusts (Fastify's `request.ip`, which honours TRUST_PROXY); never stored. */
  clientIp: string | undefined;
  /** The index of the targeting rule that sent the visitor; absent: the link's main target. */
  rule?: number | undefined;
}

const UNKNOWN = 'Unknown';
const DIRECT = 'direct';

/**
 * Turns one redirect into the click the stream carries. Pure apart from a bounded cache of parsed user
 * agents, and synchronous: it runs on the redirect's hot path.
 */
export function describeClick(input: ClickInput): Click {
  const agent = describeAgent(input.userAgent);
  const click: Click = {
    id: input.id,
    linkId: input.linkId,
    code: input.code,
    atMs: input.atMs,
    country: countryOf(input.clientIp),
    device: agent.device,
    browser: agent.browser,
    os: agent.os,
    referrer: referrerOf(input.referer),
    bot: agent.bot,
  };
  // Set only on a rule's click: a plain click keeps the object shape every redirect has made so far.
  if (input.rule !== undefined) click.rule = input.rule;
  return click;
}

/** A visitor as a targeting rule sees them: analytics' country, device and operating system. */
export interface VisitorDescription {
  country: string;
  device: Click['device'];
  os: string;
}

/** The same country and device as the visit's click gets (the same caches), for targeting rules. */
export function describeVisitor(
  userAgent: string | undefined,
  clientIp: string | undefined,
): VisitorDescription {
  const agent = describeAgent(userAgent);
  return { country: countryOf(clientIp), device: agent.device, os: agent.os };
}

// ---- user agent -------------------------------------------------------------------------------------

interface AgentDescription {
  device: Click['device'];
  browser: string;
  os: string;
  bot: boolean;
}

/**
 * Real user agents are under ~400 characters. Parsing a 16 KB header costs bowser and isbot several
 * milliseconds of event loop, so only the head is looked at (and cached): a bot token past it is missed.
 */
const MAX_AGENT_LENGTH = 512;
const AGENT_CACHE_SIZE = 1_000;

/** bowser's names where the product wants a shorter, human one; every other name is kept as bowser says. */
const BROWSER_NAMES: Readonly<Record<string, string>> = {
  'Microsoft Edge': 'Edge',
  'Samsung Internet for Android': 'Samsung Internet',
};

/**
 * A request without a user agent is counted as a bot, although isbot itself says false for it: every
 * browser sends one, so its absence means a script, and counting scripts would inflate human clicks.
 */
const NO_AGENT: AgentDescription = Object.freeze({
  device: 'desktop',
  browser: UNKNOWN,
  os: UNKNOWN,
  bot: true,
});

const agentCache = new Map<string, AgentDescription>();

/** Whether the click of this user agent is counted as a bot's (no agent at all is one, as above). */
export const isBotAgent = (userAgent: string | undefined): boolean => describeAgent(userAgent).bot;

function describeAgent(userAgent: string | undefined): AgentDescription {
  const key = userAgent?.trim().slice(0, MAX_AGENT_LENGTH);
  if (!key) return NO_AGENT;
  const cached = agentCache.get(key);
  if (cached) {
    // Recency only matters once the cache is nearly full: until then a hit costs one look-up.
    if (agentCache.size >= AGENT_CACHE_SIZE * 0.9) touch(key, cached);
    return cached;
  }
  const described = parseAgent(key);
  remember(key, described);
  return described;
}

/** Moves a hit to the young end of the Map's insertion order, so busy agents survive a flood of new ones. */
function touch(key: string, value: AgentDescription): void {
  agentCache.delete(key);
  agentCache.set(key, value);
}

function remember(key: string, value: AgentDescription): void {
  if (agentCache.size >= AGENT_CACHE_SIZE) {
    const oldest = agentCache.keys().next().value;
    if (oldest !== undefined) agentCache.delete(oldest);
  }
  agentCache.set(key, value);
}

function parseAgent(userAgent: string): AgentDescription {
  const parsed = Bowser.parse(userAgent);
  return Object.freeze({
    device: deviceOf(parsed.platform.type),
    browser: browserName(parsed.browser.name),
    os: parsed.os.name || UNKNOWN,
    bot: isbot(userAgent),
  });
}

/** bowser also says `bot` and `tv`, and nothing for many agents: the product has three labels. */
function deviceOf(platformType: string | undefined): Click['device'] {
  return platformType === 'mobile' || platformType === 'tablet' ? platformType : 'desktop';
}

function browserName(name: string | undefined): string {
  if (!name) return UNKNOWN;
  return BROWSER_NAMES[name] ?? name;
}

/** @internal For tests and benches: forget every parsed agent. */
export function clearAgentCache(): void {
  agentCache.clear();
}

/** @internal */
export function agentCacheSize(): number {
  return agentCache.size;
}

// ---- country ----------------------------------------------------------------------------------------

/**
 * Addresses that name no place: private, loopback, link-local, shared (CGNAT), documentation, multicast.
 * geoip-country has no rows for them today; checking first keeps a data update from ever placing them.
 * Plain integer compares: node's BlockList costs ~3 µs a check (a trip into C++), more than the lookup.
 */
const PLACELESS_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3], // multicast, reserved, broadcast
].map(([network, prefix]) => subnetV4(network as string, prefix as number));

function subnetV4(network: string, prefix: number): { network: number; mask: number } {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return { network: ipv4ToInt(network) & mask, mask };
}

/** Only for strings `isIP` has accepted as IPv4. */
function ipv4ToInt(ip: string): number {
  const [a, b, c, d] = ip.split('.').map(Number);
  return (((a ?? 0) << 24) | ((b ?? 0) << 16) | ((c ?? 0) << 8) | (d ?? 0)) >>> 0;
}

function isPlacelessV4(ip: string): boolean {
  const address = ipv4ToInt(ip);
  return PLACELESS_V4.some(({ network, mask }) => (address & mask) >>> 0 === network);
}

/** Only for strings `isIP` has accepted as IPv6 (no zone); the first two groups decide. */
function isPlacelessV6(ip: string): boolean {
  const groups = ip.split(':', 2);
  const first = Number.parseInt(groups[0] || '0', 16);
  const second = Number.parseInt(groups[1] || '0', 16);
  return (
    first === 0 || // ::, ::1 and the rest of the reserved 0000::/16 (IPv4-mapped ones were unmapped)
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast ff00::/8
    (first === 0x2001 && second === 0x0db8) // documentation 2001:db8::/32
  );
}

/**
 * Recent answers of `countryOf` and `referrerOf`, oldest dropped first: a visitor's clicks come from one
 * address, a campaign's from one referring page, and the look-ups (a binary search over 200,000 ranges,
 * a URL parse) cost more than the rest of a click.
 */
class RecentAnswers {
  private readonly answers = new Map<string, string>();
  constructor(private readonly size: number) {}

  get(key: string, answer: (key: string) => string): string {
    let value = this.answers.get(key);
    if (value === undefined) {
      value = answer(key);
      if (this.answers.size >= this.size) {
        const oldest = this.answers.keys().next().value;
        if (oldest !== undefined) this.answers.delete(oldest);
      }
      this.answers.set(key, value);
    }
    return value;
  }
}

const countries = new RecentAnswers(10_000);
const referrers = new RecentAnswers(1_000);

function countryOf(clientIp: string | undefined): string {
  return clientIp ? countries.get(clientIp, lookUpCountry) : UNKNOWN;
}

function lookUpCountry(clientIp: string): string {
  const ip = unmapIPv4(withoutZone(clientIp.trim()));
  const family = isIP(ip);
  if (family === 0) return UNKNOWN;
  if (family === 4 ? isPlacelessV4(ip) : isPlacelessV6(ip)) return UNKNOWN;
  const country = geoip.lookup(ip)?.country;
  return country && /^[A-Z]{2}$/.test(country) ? country : UNKNOWN;
}

/** `fe80::1%eth0`: the zone names an interface of this host, not part of the address. */
function withoutZone(ip: string): string {
  const percent = ip.indexOf('%');
  return percent === -1 ? ip : ip.slice(0, percent);
}

const MAPPED_PREFIX = /^(?:(?:0{1,4}:){5}|::(?:0{1,4}:){0,4})ffff:/i;
const MAPPED_HEX_TAIL = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/**
 * A dual-stack socket reports IPv4 clients as `::ffff:1.2.3.4` (or, from some proxies, `::ffff:102:304`):
 * the IPv4 address is what the placeless list and the IPv4 table must see.
 */
function unmapIPv4(ip: string): string {
  const prefix = MAPPED_PREFIX.exec(ip);
  if (!prefix) return ip;
  const tail = ip.slice(prefix[0].length);
  if (isIPv4(tail)) return tail;
  const hex = MAPPED_HEX_TAIL.exec(tail);
  if (!hex) return ip;
  const high = Number.parseInt(hex[1] ?? '', 16);
  const low = Number.parseInt(hex[2] ?? '', 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

// ---- referrer ---------------------------------------------------------------------------------------

/** No DNS name is longer; anything longer is junk that would only bloat the referrer rows. */
const MAX_HOST_LENGTH = 253;

function referrerOf(referer: string | undefined): string {
  // Only short ones are remembered: a long Referer is rarely sent twice, and would fill the cache.
  if (!referer) return DIRECT;
  return referer.length <= 256 ? referrers.get(referer, hostOf) : hostOf(referer);
}

function hostOf(referer: string): string {
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return DIRECT;
  }
  // `android-app://`, `file:`, `about:`…: not a site the visitor came from.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return DIRECT;
  const host = stripWww(url.hostname.replace(/\.$/, ''));
  return host && host.length <= MAX_HOST_LENGTH ? host : DIRECT;
}

/** The URL parser has already lower-cased the host. */
function stripWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}
