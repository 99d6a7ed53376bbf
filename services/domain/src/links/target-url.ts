import ipaddr from 'ipaddr.js';
import { parse } from 'tldts';
import { ValidationError } from '../errors';

export const MAX_URL_LENGTH = 2048;

const invalidUrl = (message: string) => new ValidationError(message, 'originalUrl', 'INVALID_URL');

/**
 * A link's target, checked without any DNS look-up: http or https; a domain name under a public suffix
 * (ICANN or a private registry such as github.io) or a public IP address; at most 2048 characters; and
 * never a short link of this site (which would loop). Returns the URL as the WHATWG parser normalises it.
 */
export function checkTargetUrl(raw: string, ownOrigins: readonly string[]): string {
  const candidate = raw.trim();
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

function isOwnShortLink(url: URL, ownOrigins: readonly string[]): boolean {
  const own = ownOrigins.map((origin) => new URL(origin).host.toLowerCase());
  return own.includes(url.host.toLowerCase()) && url.pathname.toLowerCase().startsWith('/s/');
}
