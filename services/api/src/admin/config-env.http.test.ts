import type { ErrorBody, KnownSettingState, Link, User } from '@sniplink/contracts';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { describe, expect, it } from 'vitest';

// A self-hoster's own allowances: 2 links on Free, 3 a month on Pro (the link allowances: `links.*_limit`).
const t = testApiWithAdmin('config.env.admin@example.com', {
  env: { FREE_LINK_LIMIT: '2', PRO_LINK_LIMIT: '3' },
});

const settings = async () =>
  (await t.admin.get<KnownSettingState[]>('/api/admin/config-settings')).body.filter((setting) =>
    /^links\.\w+_limit$/.test(setting.key),
  );
const add = (key: string, value: string) => t.admin.post('/api/admin/config', { key, value });
const remove = (key: string) => t.admin.request('DELETE', `/api/admin/config/${key}`);
const allowance = async (client: HttpClient) => (await client.get<User>('/api/auth/user')).body.linkAllowance;
const create = (client: HttpClient, n: number) =>
  client.post<Link & ErrorBody>('/api/links', { originalUrl: `https://example.com/env/${n}` });

describe('FREE_LINK_LIMIT and PRO_LINK_LIMIT', () => {
  it('are the defaults the Config tab shows, naming the variable', async () => {
    expect(await settings()).toEqual([
      {
        key: 'links.free_limit',
        label: 'Links a Free account may hold',
        value: 2,
        default: 2,
        defaultFrom: 'FREE_LINK_LIMIT',
        set: false,
      },
      {
        key: 'links.pro_monthly_limit',
        label: 'Links a Pro account may create per calendar month (UTC)',
        value: 3,
        default: 3,
        defaultFrom: 'PRO_LINK_LIMIT',
        set: false,
      },
    ]);
  });

  it('hold a Free account to FREE_LINK_LIMIT; an admin entry wins over it, and deleting it brings it back', async () => {
    const { client } = await signedUpClient(t.api, 'config.env.free');
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 0, limit: 2, remaining: 2 });
    expect((await create(client, 1)).status).toBe(201);
    expect((await create(client, 2)).status).toBe(201);
    expect(await create(client, 3)).toMatchObject({
      status: 403,
      body: {
        code: 'SUBSCRIPTION_REQUIRED',
        message: 'Free accounts can hold 2 links at a time. Delete a link, or upgrade to Pro to create more.',
      },
    });

    expect((await add('links.free_limit', '3')).status).toBe(201);
    try {
      expect((await settings())[0]).toMatchObject({ value: 3, default: 2, set: true });
      expect((await create(client, 3)).status).toBe(201);
      expect(await allowance(client)).toEqual({ period: 'lifetime', used: 3, limit: 3, remaining: 0 });
    } finally {
      expect((await remove('links.free_limit')).status).toBe(200);
    }
    expect((await settings())[0]).toMatchObject({ value: 2, default: 2, set: false });
    expect(await allowance(client)).toEqual({ period: 'lifetime', used: 3, limit: 2, remaining: 0 });
  });

  it('hold a Pro account to PRO_LINK_LIMIT a month; an admin entry wins over it', async () => {
    const { client, userId } = await signedUpClient(t.api, 'config.env.pro');
    await t.api.runtime.accounts.setPlan(userId, 'monthly');
    expect(await allowance(client)).toEqual({ period: 'month', used: 0, limit: 3, remaining: 3 });
    for (let n = 1; n <= 3; n++) expect((await create(client, n)).status).toBe(201);
    expect(await create(client, 4)).toMatchObject({
      status: 403,
      body: {
        code: 'MONTHLY_LIMIT_REACHED',
        message:
          "Pro accounts can create 3 links a month, and this month's are used. More can be created from the 1st of next month (UTC).",
      },
    });

    expect((await add('links.pro_monthly_limit', '4')).status).toBe(201);
    try {
      expect((await create(client, 4)).status).toBe(201);
      expect(await allowance(client)).toEqual({ period: 'month', used: 4, limit: 4, remaining: 0 });
    } finally {
      await remove('links.pro_monthly_limit');
    }
    expect(await allowance(client)).toEqual({ period: 'month', used: 4, limit: 3, remaining: 0 });
  });
});
