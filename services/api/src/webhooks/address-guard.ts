import { lookup } from 'node:dns/promises';
import { ValidationError } from '@sniplink/domain';
import ipaddr from 'ipaddr.js';

/** Where a delivery connects: the address the name resolved to when it was checked (never resolved again). */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Whether an address is on the public internet. ipaddr.js names every special range (private, loopback,
 * link-local, carrier-grade NAT, multicast, unspecified, broadcast, reserved, unique-local, …); only plain
 * `unicast` is public. An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 one.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

/**
 * Checks an endpoint URL against server-side request forgery and answers where to connect. https to a name
 * whose every address is public is allowed; an address that is not public (a name resolving to 127.0.0.1
 * included) only when the admin allows private endpoints (`webhooks.allow_private`), and then http too.
 * Every address the name resolves to is checked, not only the first: a name with one private address among
 * public ones is refused, and the connection goes to the checked address, so a second lookup (DNS
 * rebinding) cannot swap it.
 */
export async function checkEndpoint(url: string, allowPrivate: boolean): Promise<PinnedAddress> {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = await resolve(host);
  const allPublic = addresses.every((each) => isPublicAddress(each.address));
  if (!allPublic && !allowPrivate) {
    throw new ValidationError(
      'The endpoint URL resolves to a private, loopback or reserved address, which webhooks may not call',
      'url',
    );
  }
  if (parsed.protocol !== 'https:' && allPublic) {
    throw new ValidationError('The endpoint URL must use https', 'url');
  }
  const [first] = addresses;
  if (!first) throw new ValidationError('The endpoint URL names a host that does not resolve', 'url');
  return first;
}

async function resolve(host: string): Promise<PinnedAddress[]> {
  if (ipaddr.isValid(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  } catch {
    throw new ValidationError('The endpoint URL names a host that does not resolve', 'url');
  }
}
