import type { ErrorBody, Link, User } from '@sniplink/contracts';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';

/** The allowances an admin sets in the Config tab are the ones every page and message names. */
const t = testApiWithAdmin('links.limits.admin@example.com');

const limits = async () => (await t.api.client().get<unknown>('/api/links/limits')).body;
/** Adds the admin's entry, or changes it when there is one. */
const set = async (key: string, value: string) => {
  const added = await t.admin.post('/api/admin/config', { key, value });
  if (added.status === 409) {
    expect((await t.admin.request('PUT', `/api/admin/config/${key}`, { value })).status).toBe(200);
  } else expect(added.status).toBe(201);
};
const create = (client: HttpClient, n: number) =>
  client.post<Link & ErrorBody>('/api/links', { originalUrl: `https://example.com/limits/${n}` });

describe('GET /api/links/limits', () => {
  it('gives anyone, signed out too, the defaults, then the limits an admin sets', async () => {
    expect(await limits()).toEqual({ free: 5, proMonthly: 500 });
    await set('links.free_limit', '14');
    await set('links.pro_monthly_limit', '14');
    expect(await limits()).toEqual({ free: 14, proMonthly: 14 });
  });

  it("has the refusal and the user's allowance name the limit in force, in the same words", async () => {
    await set('links.free_limit', '2');
    await set('links.pro_monthly_limit', '3');
    const free = (await signedUpClient(t.api, 'limits.free')).client;
    for (let n = 0; n < 2; n++) expect((await create(free, n)).status).toBe(201);
    expect((await create(free, 2)).body).toEqual({
      code: 'SUBSCRIPTION_REQUIRED',
      message: 'Free accounts can hold 2 links at a time. Delete a link, or upgrade to Pro to create more.',
    });

    const pro = await signedUpClient(t.api, 'limits.pro');
    await t.api.runtime.accounts.setPlan(pro.userId, 'monthly');
    for (let n = 0; n < 3; n++) expect((await create(pro.client, n)).status).toBe(201);
    expect((await create(pro.client, 3)).body.message).toBe(
      "Pro accounts can create 3 links a month, and this month's are used. More can be created from the 1st of next month (UTC).",
    );
    expect((await pro.client.get<User>('/api/auth/user')).body.linkAllowance).toEqual({
      period: 'month',
      used: 3,
      limit: 3,
      remaining: 0,
    });
  });
});
