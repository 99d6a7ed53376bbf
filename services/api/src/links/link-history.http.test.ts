import type { CreatedApiKey, ErrorBody, Link, LinkHistoryEntry } from '@sniplink/contracts';
import type { SlugApproval } from '@sniplink/contracts/moderation/api';
import { type HttpClient, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { until } from '@sniplink/test-support/until';
import { beforeAll, describe, expect, it } from 'vitest';

const ADMIN_EMAIL = `history.admin.${Date.now()}@example.com`;
const PASSWORD = 'hunter2-history';

const t = testApiWithAdmin(ADMIN_EMAIL);
let owner: HttpClient;
let ownerEmail: string;
let link: Link;
beforeAll(async () => {
  ({ client: owner } = await signedUpClient(t.api, 'history.owner'));
  ownerEmail = (await owner.get<{ email: string }>('/api/auth/user')).body.email;
  const created = await owner.post<Link>('/api/links', {
    originalUrl: 'https://example.com/first',
    title: 'Launch',
  });
  expect(created.status, created.text).toBe(201);
  link = created.body;
  const changes: Record<string, unknown>[] = [
    { originalUrl: 'https://example.com/second' },
    { password: PASSWORD, maxClicks: 100 },
    { paused: true },
    { rules: [{ when: { device: ['ios'] }, url: 'https://example.com/ios' }], tags: ['Spring'] },
    { password: null, paused: false },
  ];
  for (const body of changes) {
    const changed = await owner.patch(`/api/links/${link.id}`, body);
    expect(changed.status, changed.text).toBe(200);
  }
});

const historyOf = (client: HttpClient, id: string, headers?: Record<string, string>) =>
  client.get<LinkHistoryEntry[] & ErrorBody>(`/api/links/${id}/history`, headers);

describe("a link's history", () => {
  it('lists every change newest first, each made by "owner", without the password', async () => {
    const history = await historyOf(owner, link.id);
    expect(history.status, history.text).toBe(200);
    expect(history.headers.get('cache-control')).toBe('no-store');
    const entries = history.body.map(({ type, actor, summary }) => ({ type, actor, summary }));
    // The oldest last: the creation, then each PATCH's changes.
    expect(entries.at(-1)).toEqual({
      type: 'created',
      actor: 'owner',
      summary: `Created with code ${link.shortCode}, to https://example.com/first`,
    });
    expect(entries).toEqual(
      expect.arrayContaining([
        { type: 'target-changed', actor: 'owner', summary: 'Target changed to https://example.com/second' },
        { type: 'password-set', actor: 'owner', summary: 'Password set' },
        { type: 'click-limit-changed', actor: 'owner', summary: 'Click limit set to 100' },
        { type: 'paused', actor: 'owner', summary: 'Paused' },
        { type: 'unpaused', actor: 'owner', summary: 'Resumed' },
        { type: 'tags-changed', actor: 'owner', summary: 'Tags set to spring' },
        { type: 'rules-changed', actor: 'owner', summary: 'Targeting rules set: 1 rule' },
        { type: 'password-removed', actor: 'owner', summary: 'Password removed' },
      ]),
    );
    expect(entries.map(({ type }) => type).indexOf('paused')).toBeGreaterThan(
      entries.map(({ type }) => type).indexOf('unpaused'),
    );
    const times = history.body.map(({ occurredAt }) => Date.parse(occurredAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(history.text).not.toContain(PASSWORD);
  });

  it('is a 404 to another user, and for a link that is not there', async () => {
    const { client: stranger } = await signedUpClient(t.api, 'history.stranger');
    const theirs = await historyOf(stranger, link.id);
    expect([theirs.status, theirs.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(theirs.text).not.toContain('example.com');
    expect((await historyOf(owner, 'not-a-link')).status).toBe(404);
    expect((await historyOf(t.api.client(), link.id)).status).toBe(401);
  });

  it("is open to the owner's API key with links:read, and marks what the key changed", async () => {
    const made = async (scopes: string[]) => {
      const created = await owner.post<CreatedApiKey>('/api/api-keys', { name: scopes.join(' '), scopes });
      expect(created.status, created.text).toBe(201);
      return { authorization: `Bearer ${created.body.secret}` };
    };
    const writer = await made(['links:write']);
    const reader = await made(['links:read']);
    const anyone = t.api.client();
    expect((await historyOf(anyone, link.id, writer)).status).toBe(403);
    const retitled = await anyone.request('PATCH', `/api/links/${link.id}`, { title: 'By script' }, writer);
    expect(retitled.status, retitled.text).toBe(200);
    const history = await historyOf(anyone, link.id, reader);
    expect(history.status, history.text).toBe(200);
    expect(history.body[0]).toMatchObject({
      type: 'title-changed',
      actor: 'api-key',
      summary: 'Title changed to “By script”',
    });
  });

  it("shows an admin's decision as support's, naming neither the admin nor the owner", async () => {
    const brand = `Hb${[...Date.now().toString(36).slice(-5)].map((c) => String.fromCharCode(97 + (Number.parseInt(c, 36) % 26))).join('')}`;
    const added = await t.admin.post('/api/admin/protected-brands', { brand, requiresApproval: true });
    expect(added.status, added.text).toBe(201);
    const code = `${brand}-shop`;
    const moved = await owner.patch<Link>(`/api/links/${link.id}`, { shortCode: code });
    expect(moved.status, moved.text).toBe(200);
    const approvals = await until(
      async () => (await t.admin.get<SlugApproval[]>('/api/admin/slug-approvals')).body,
      (all) => all.some((approval) => approval.slug === code),
      5_000,
    );
    const approval = approvals.find((one) => one.slug === code) as SlugApproval;
    const approved = await t.admin.patch(`/api/admin/slug-approvals/${approval.id}/approve`, {
      notes: 'checked with the brand team',
    });
    expect(approved.status, approved.text).toBe(200);

    const history = await historyOf(owner, link.id);
    expect(history.body.slice(0, 2).map(({ type, actor, summary }) => ({ type, actor, summary }))).toEqual([
      { type: 'code-approved', actor: 'support', summary: `Code ${code} approved` },
      {
        type: 'code-changed',
        actor: 'owner',
        summary: `Code changed from ${link.shortCode} to ${code} (waiting for approval)`,
      },
    ]);
    expect(history.text).not.toContain(ADMIN_EMAIL);
    expect(history.text).not.toContain(t.adminId);
    expect(history.text).not.toContain(ownerEmail);
    expect(history.text).not.toContain('brand team');
  });
});
