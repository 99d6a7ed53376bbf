import { withDefaultScheme } from '@sniplink/contracts/links/typed-url';
import ipaddr from 'ipaddr.js';
import { parse } from 'tldts';
import { ValidationError } from '../errors';

export const MAX_URL_LENGTH = 2048;

const invalidUrl = (message: string) => new ValidationError(message, 'originalUrl', 'INVALID_URL');

/**
 * A link's target, checked without any DNS look-up: http or https; a domain name under a public suffix
 * (ICANN or a private registry such as github.io) or a public IP address; at most 2048 characters; and
 * never a short link of this site (which would loop). An address typed without a scheme gets `https://`.
 * Returns the URL as the WHATWG parser normalises it.
 */
export function checkTargetUrl(raw: string, ownOrigins: readonly string[]): string {
  const candidate = withDefaultScheme(raw);
  if (candidate.length === 0) throw invalidUrl('Enter the URL to shorten');
  if (candidate.length > MAX_URL_LENGTH)
    throw invalidUrl(`The URL must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw invalidUrl('This is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidUrl('Only http and https URLs can be shortened');
  if (url.username || url.password) throw invalidUrl('URLs with a user name or password cannot be shortened');
  if (isOwnShortLink(url, ownOrigins))
    throw invalidUrl('A short link of this site cannot be shortened again');
  if (!isPublicHost(url.hostname)) throw invalidUrl('This URL does not point to a public website');
  if (url.href.length > MAX_URL_LENGTH)
    throw invalidUrl(`The URL must be at most ${MAX_URL_LENGTH} characters`);
  return url.href;
}

function isPublicHost(hostname: string): boolean {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(bare)) return ipaddr.process(bare).range() === 'unicast';
  const parsed = parse(bare, { allowPrivateDomains: true });
  return parsed.domain !== null && (parsed.isIcann === true || parsed.isPrivate === true);
}

/**
 * A URL this site's redirect would answer: one of our hosts on any port (the app may also be reachable on
 * its own port next to the proxy's) and a path under `/s/`. The WHATWG parser already lower-cases the
 * host, turns an IDN into punycode, drops a default port and resolves dot segments; left to do are a
 * host's trailing dots (`host.` is the same host), percent-encoded letters (`/%73/x` routes as `/s/x`)
 * and repeated slashes (`//s/x`: proxies such as nginx merge them before the app sees the path). The
 * prefix stays case-sensitive, as the routes are: `/S/x` is not a redirect.
 */
function isOwnShortLink(url: URL, ownOrigins: readonly string[]): boolean {
  const host = withoutTrailingDots(url.hostname);
  const path = comparablePath(url.pathname);
  return ownOrigins.some((origin) => {
    const own = new URL(origin);
    const prefix = `${comparablePath(own.pathname).replace(/\/$/, '')}/s/`;
    return withoutTrailingDots(own.hostname) === host && path.startsWith(prefix);
  });
}

const withoutTrailingDots = (hostname: string) => hostname.replace(/\.+$/, '');

/** Unreserved characters percent-decoded (as the router decodes them; `%2F` stays), slashes merged. */
function comparablePath(pathname: string): string {
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /^[A-Za-z0-9._~-]$/.test(char) ? char : encoded;
  });
  return decoded.replace(/\/{2,}/g, '/');
}
