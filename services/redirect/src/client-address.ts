import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '@sniplink/platform';

/**
 * Whether a hop in front of the app is one of its own proxies: `index` 0 is the socket's peer, then the
 * X-Forwarded-For addresses from right to left. Fastify's `trustProxy` takes this very function, so
 * `request.ip` (every rate limit's key) and the redirect's fast paths (a click's country) agree.
 */
export type TrustedHop = (address: string, index: number) => boolean;

/** TRUST_PROXY as the hop test that Fastify and `clientAddress` apply; undefined when no hop is trusted. */
export function trustedHop(trust: TrustProxy): TrustedHop | undefined {
  switch (trust.kind) {
    case 'none':
      return undefined;
    case 'hops':
      return (_address, index) => index < trust.hops;
    case 'addresses':
      return proxyAddr.compile(trust.addresses);
    case 'every':
      return () => true;
  }
}

/**
 * The client's address: the right-most hop that is not a trusted proxy (the socket's peer when none is
 * trusted). A client can write any X-Forwarded-For it likes, but only the hops our proxies appended are
 * read, so what it wrote on the left is skipped. `forwardedFor` is every X-Forwarded-For header, joined
 * with ", " as node joins them.
 */
export function clientAddress(
  trusted: TrustedHop | undefined,
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
): string | undefined {
  if (trusted === undefined || forwardedFor === undefined || socketAddress === undefined)
    return socketAddress;
  const request = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: socketAddress } };
  return proxyAddr(request as unknown as Parameters<typeof proxyAddr>[0], trusted);
}
