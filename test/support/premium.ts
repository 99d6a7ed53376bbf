import type { OwnedPremiumSlug, PremiumPaymentIntent, PremiumSlug } from '@sniplink/contracts';
import { paymentIntentEvent, type TestPayments } from '../../services/api/src/billing/testing';
import { type HttpClient, signedUpClient, type TestApi } from './api';
import { until } from './until';

let slugs = 0;

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
  const added = await admin.post<PremiumSlug>('/api/admin/premium-slugs', {
    slug: `own${++slugs}x${Date.now() % 100_000}`,
  });
  if (added.status !== 201) throw new Error(`Adding a slug answered ${added.status}: ${added.text}`);
  const slug = added.body;
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
