import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';

/** The web app's policy as a browser reads it: directive → sources. */
async function policyOf(stripeJs: boolean): Promise<Map<string, string[]>> {
  const app = Fastify();
  await securityHeaders(false, stripeJs).register(app);
  app.get('/', async () => 'page');
  const response = await app.inject('/');
  await app.close();
  const policy = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    policy.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe("the web app's policy with Stripe's Payment Element", () => {
  it('allows Stripe.js, its frames and its API only when Stripe is set up with a publishable key', async () => {
    const stripe = await policyOf(true);
    expect(stripe.get('script-src')).toEqual(["'self'", 'https://js.stripe.com']);
    expect(stripe.get('frame-src')).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
    expect(stripe.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    expect(stripe.get('frame-ancestors')).toEqual(["'none'"]);
    const plain = await policyOf(false);
    expect(plain.get('script-src')).toEqual(["'self'"]);
    expect(plain.get('connect-src')).toEqual(["'self'"]);
    expect(plain.has('frame-src')).toBe(false);
  });
});
