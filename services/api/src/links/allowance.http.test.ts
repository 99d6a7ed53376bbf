import type { ErrorBody, Link, LinkAllowance, User } from '@sniplink/contracts';
import { type HttpClient, signedUpClient, startTestApi, type TestApi } from '@sniplink/test-support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * One allowance rule, shown the same everywhere: the user JSON's `linkAllowance` (which the dashboard
 * cards and the profile show) and the create refusal agree at every step.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const signedIn = () => signedUpClient(api, 'allowance');

const allowance = async (client: HttpClient) => (await client.get<User>('/api/auth/user')).body.linkAllowance;
const create = (client: HttpClient, n: number) =>
  client.post<Link & ErrorBody>('/api/links', { originalUrl: `https://example.com/${n}`, title: null });

describe('the link allowance', () => {
  it('Free: 5 links held leave 0 and the next create is refused; deleting one leaves 1, and a create works', async () => {
    const { client } = await signedIn();
    const links: Link[] = [];
    for (let n = 0; n < 5; n++) {
      const made = await create(client, n);
      expect(made.status).toBe(201);
      links.push(made.body);
      expect(await allowance(client)).toEqual<LinkAllowance>({
        period: 'lifetime',
        used: n + 1,
        limit: 5,
        remaining: 4 - n,
      });
    }
    expect(await create(client, 5)).toMatchObject({ status: 403, body: { code: 'SUBSCRIPTION_REQUIRED' } });

    expect((await client.request('DELETE', `/api/links/${links[0]?.id}`)).status).toBe(200);
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 4, limit: 5, remaining: 1 });
    expect((await create(client, 6)).status).toBe(201);
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 5, limit: 5, remaining: 0 });
    expect((await create(client, 7)).body.code).toBe('SUBSCRIPTION_REQUIRED');
  });

  it("Pro: counts this month's creations against 500; a deletion gives none back", async () => {
    const { client, userId } = await signedIn();
    await api.runtime.accounts.setPlan(userId, 'monthly');
    const first = (await create(client, 0)).body;
    await create(client, 1);
    expect(await allowance(client)).toEqual({ period: 'month', used: 2, limit: 500, remaining: 498 });
    await client.request('DELETE', `/api/links/${first.id}`);
    expect(await allowance(client)).toEqual({ period: 'month', used: 2, limit: 500, remaining: 498 });
    expect((await client.get<User>('/api/auth/user')).body.linksCreatedThisMonth).toBe(2);
  });

  it('after a downgrade, Free counts the links held: more than 5 held leave 0 and creating is refused', async () => {
    const { client, userId } = await signedIn();
    await api.runtime.accounts.setPlan(userId, 'yearly');
    for (let n = 0; n < 7; n++) expect((await create(client, n)).status).toBe(201);
    await api.runtime.accounts.setPlan(userId, 'free');
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 7, limit: 5, remaining: 0 });
    expect(await create(client, 7)).toMatchObject({ status: 403, body: { code: 'SUBSCRIPTION_REQUIRED' } });
  });
});
