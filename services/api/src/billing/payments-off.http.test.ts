import { PAYMENTS_DISABLED_MESSAGE, type Purchases } from '@sniplink/contracts';
import {
  type HttpClient,
  signedUpAdmin,
  signedUpClient,
  startTestApi,
  type TestApi,
} from '@sniplink/test-support/api';
import { addedPremiumSlug, uniqueSlug } from '@sniplink/test-support/premium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN_EMAIL = 'payments.off.admin@example.com';

let api: TestApi;
let admin: HttpClient;
beforeAll(async () => {
  api = await startTestApi({ ADMIN_EMAILS: ADMIN_EMAIL, PAYMENTS: 'off' });
  ({ client: admin } = await signedUpAdmin(api, ADMIN_EMAIL));
});
afterAll(() => api.close());

const disabled = { code: 'PAYMENTS_DISABLED', message: PAYMENTS_DISABLED_MESSAGE };

describe('PAYMENTS=off', () => {
  it('says purchases are not enabled, to anyone', async () => {
    const answer = await api.client().get<Purchases>('/api/billing/purchases');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ enabled: false, message: PAYMENTS_DISABLED_MESSAGE });
  });

  it('refuses Upgrade and the billing portal with 409 PAYMENTS_DISABLED and a sentence', async () => {
    const { client } = await signedUpClient(api, 'payments.off.upgrade');
    const upgrade = await client.post('/api/create-subscription', { plan: 'monthly' });
    expect(upgrade.status).toBe(409);
    expect(upgrade.body).toEqual(disabled);
    const portal = await client.post('/api/billing/portal');
    expect(portal.status).toBe(409);
    expect(portal.body).toEqual(disabled);
  });

  it('refuses a premium slug purchase, and the slug stays for sale unheld', async () => {
    const slug = await addedPremiumSlug(admin, { slug: uniqueSlug('off') });
    const { client, userId } = await signedUpClient(api, 'payments.off.buyer');
    // Plans are an admin's to set: this one is Pro and still cannot buy.
    await api.runtime.accounts.setPlan(userId, 'monthly');
    const bought = await client.post(`/api/marketplace/premium-slugs/${slug.id}/payment-intent`);
    expect(bought.status).toBe(409);
    expect(bought.body).toEqual(disabled);
    const detail = await api.client().get<{ held: boolean }>(`/api/marketplace/premium-slugs/${slug.id}`);
    expect(detail.body).toMatchObject({ held: false });
  });

  it('accepts no webhook', async () => {
    const answer = await api.client().post('/api/webhooks/stripe', '{"id":"evt_1"}', {
      'content-type': 'application/json',
      'stripe-signature': 't=1,v1=00',
    });
    expect(answer.status).toBe(400);
  });
});
