import type { OwnedPremiumSlug, PremiumPaymentIntent, PremiumSlug } from '@sniplink/contracts';
import { expect } from 'vitest';
import { paymentIntentEvent, type TestPayments } from '../../services/api/src/billing/testing';
import { type HttpClient, signedUpClient, type TestApi } from './api';
import { until } from './until';

let slugs = 0;
/** A premium slug's code no other test uses: `name` first, lower case, at most 20 characters. */
export const uniqueSlug = (name: string) => `${name}${++slugs}x${Date.now() % 100_000}`.slice(0, 20);

/** A premium slug `admin` (signed in as an admin) adds through the API; `body` is what the API takes. */
export async function addedPremiumSlug(
  admin: HttpClient,
  body: Record<string, unknown>,
): Promise<PremiumSlug> {
  const response = await admin.post<PremiumSlug>('/api/admin/premium-slugs', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/**
 * A Pro user who bought a fresh premium slug the admin added: the payment started through the API and the
 * provider's success event delivered to the webhook, as Stripe would. `admin` is signed in as an admin.
 */
export async function premiumSlugOwner(
  api: TestApi,
  payments: TestPayments,
  admin: HttpClient,
  label: string,
): Promise<{ client: HttpClient; userId: string; slug: PremiumSlug }> {
  const signedUp = await signedUpClient(api, label);
  await api.runtime.accounts.setPlan(signedUp.userId, 'monthly');
  const slug = await addedPremiumSlug(admin, { slug: uniqueSlug('own') });
  const started = await signedUp.client.post<PremiumPaymentIntent>(
    `/api/marketplace/premium-slugs/${slug.id}/payment-intent`,
  );
  if (started.status !== 200) throw new Error(`Buying answered ${started.status}: ${started.text}`);
  const intent = started.body;
  const { body, signature } = payments.signed(
    paymentIntentEvent(`evt_${intent.holdId}`, 'payment_intent.succeeded', {
      id: intent.paymentIntentId,
      amount: intent.amount,
      metadata: {
        premiumSlugId: slug.id,
        premiumHoldId: intent.holdId,
        userId: signedUp.userId,
        slug: slug.slug,
      },
    }),
  );
  const delivered = await api.client().post('/api/webhooks/stripe', body, {
    'stripe-signature': signature,
    'content-type': 'application/json',
  });
  if (delivered.status !== 200) throw new Error(`The webhook answered ${delivered.status}`);
  await until(
    async () => (await signedUp.client.get<OwnedPremiumSlug[]>('/api/user/premium-slugs')).body.length,
    (count) => count === 1,
    10_000,
  );
  return { ...signedUp, slug };
}
