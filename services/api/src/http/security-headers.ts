import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the route sets its own headers (`SecurityHeaders.apply`, or a redirect's). */
    securityHeaders?: false;
  }
}

/**
 * The headers every answer carries, so that a browser never guesses a body's type, never shows our pages
 * in another site's frame, sends other sites only our origin as the referrer, and, where the site is
 * served over https, never reaches it over plain http again.
 */

/**
 * HSTS for a year (what browsers and the preload list expect). Not `includeSubDomains`: an operator's
 * other hosts under the same domain are not ours to move to https.
 */
const HSTS_MAX_AGE_SECONDS = 31_536_000;
const REFERRER_POLICY = 'strict-origin-when-cross-origin' as const;

/**
 * The web app's policy, from what the built app loads (web/dist): its own scripts and nothing inline
 * (index.html has none, and web.ts adds only meta tags); its own styles plus inline ones, because
 * Mantine writes its CSS variables and responsive props into `<style>` elements at run time (a nonce
 * would need per-request HTML, and a style cannot run code); images of its own, `data:` (the QR code)
 * and any https address (an OpenID Connect provider's profile picture in the avatar); fetches to this
 * site only. Downloads (the CSV export, the QR code's `data:` link) are navigations, not governed here.
 */
function webAppPolicy(https: boolean, stripeJs: boolean): Record<string, string[]> {
  // With Stripe, premium slugs' card form is Stripe's Payment Element: Stripe.js from js.stripe.com, its
  // frames (js.stripe.com, and hooks.stripe.com for 3-D Secure) and its calls to api.stripe.com.
  const stripe = (...sources: string[]) => (stripeJs ? sources : []);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...stripe('https://js.stripe.com')],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...stripe('https://api.stripe.com')],
    ...(stripeJs ? { frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'] } : {}),
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Only over https: on a plain-http site it would send every subresource to an https port that is not there.
    ...(https ? { upgradeInsecureRequests: [] } : {}),
  };
}

/**
 * The policy of the small pages rendered on the server with nothing but inline style (the API docs, the
 * expired demo link, "Sign out?"): no script, nothing fetched, a form only to this site.
 */
export const INLINE_STYLE_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface SecurityHeaders {
  /**
   * Helmet on every answer Fastify sends once its hooks ran (routes, the not-found handler, errors), with
   * the policy above, `X-Frame-Options: DENY` for browsers without `frame-ancestors`, and HSTS only when
   * PUBLIC_URL is https. Register before any route, so that routes may opt out (`config: { securityHeaders: false }`).
   */
  register(app: FastifyInstance): Promise<void>;
  /**
   * The same headers on an answer that Helmet's hook did not see: Fastify's `frameworkErrors` (sent
   * before any hook runs) and the pages of a route that opted out.
   */
  apply(reply: FastifyReply): FastifyReply;
  /** A redirect's headers (`redirectSecurityHeaders`). */
  redirect: Readonly<Record<string, string>>;
}

/** `stripeJs`: the web app may load Stripe.js (STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set). */
export function securityHeaders(https: boolean, stripeJs = false): SecurityHeaders {
  const options = {
    contentSecurityPolicy: { useDefaults: false as const, directives: webAppPolicy(https, stripeJs) },
    frameguard: { action: 'deny' } as const,
    referrerPolicy: { policy: REFERRER_POLICY } as const,
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
  };
  const setHeaders = helmet(options);
  return {
    register: async (app) => {
      // On the app itself, not in a plugin of its own, so that the hook runs for every route and the
      // not-found handler. Helmet's middleware is made once and sets its headers synchronously.
      app.addHook('onRequest', (request, reply, done) => {
        if (request.routeOptions.config.securityHeaders === false) return done();
        setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
      });
    },
    apply: (reply) => {
      setHeaders(reply.request.raw, reply.raw, () => {});
      return reply;
    },
    redirect: redirectSecurityHeaders(https),
  };
}

/**
 * What a redirect needs of the above, the same bytes on every path (the connection's, node's and
 * Fastify's): no sniffing, the referrer policy its target sees, HSTS over https. A 302 has no document,
 * so a content policy or frame options would only lengthen every answer.
 */
function redirectSecurityHeaders(https: boolean): Readonly<Record<string, string>> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': REFERRER_POLICY,
    ...(https ? { 'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}` } : {}),
  };
}
