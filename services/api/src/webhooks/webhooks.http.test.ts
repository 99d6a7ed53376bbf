import type { CreatedApiKey, CreatedWebhook, Link, Webhook, WebhookAttempt } from '@sniplink/contracts';
import { clickMessage } from '@sniplink/contracts';
import { type SignedUp, signedUpClient, testApiWithAdmin } from '@sniplink/test-support/api';
import { sampleClick } from '@sniplink/test-support/clicks';
import { waitForMails } from '@sniplink/test-support/outbox';
import { until } from '@sniplink/test-support/until';
import { startWebhookReceiver, type WebhookReceiver } from '@sniplink/test-support/webhook-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from './signing';

// Short retries and a short click window, so the tests take seconds rather than the real minutes and hours.
const t = testApiWithAdmin('hooks.admin@example.com', {
  env: { WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_FOR_MS: '3000', WEBHOOK_CLICK_WINDOW_MS: '2000' },
});

let owner: SignedUp;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  owner = await signedUpClient(t.api, 'hooks.owner');
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(otherwise = 200) {
  const started = await startWebhookReceiver(otherwise);
  receivers.push(started);
  return started;
}

async function allowPrivate(value: '0' | '1') {
  const answer = await t.admin.request('PUT', '/api/admin/config/webhooks.allow_private', {
    value,
    description: null,
  });
  if (answer.status === 404) {
    const added = await t.admin.post('/api/admin/config', { key: 'webhooks.allow_private', value });
    expect(added.status, added.text).toBe(201);
  } else expect(answer.status, answer.text).toBe(200);
  await until(
    async () => t.api.runtime.settings.current().webhooksAllowPrivate,
    (current) => String(current) === value,
  );
}

async function createWebhook(url: string, events: string[]) {
  const created = await owner.client.post<CreatedWebhook>('/api/webhooks', { url, events });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

const deliveriesOf = (hook: WebhookReceiver, type: string) =>
  hook.received.filter((delivery) => delivery.json.type === type);

describe('webhook endpoints', () => {
  it('refuses private addresses (localhost included) unless webhooks.allow_private is on', async () => {
    for (const url of [
      'http://127.0.0.1:9/hooks',
      'https://localhost/hooks',
      'https://10.1.2.3/hooks',
      'https://169.254.169.254/latest',
      'https://100.64.0.1/',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://0.0.0.0/',
    ]) {
      const refused = await owner.client.post('/api/webhooks', { url, events: ['link.created'] });
      expect(refused.status, url).toBe(400);
      expect(refused.text).toContain('"field":"url"');
    }
    const plain = await owner.client.post('/api/webhooks', {
      url: 'http://93.184.215.14/hooks',
      events: ['link.created'],
    });
    expect(plain.status).toBe(400);
    expect(plain.text).toContain('https');
    await allowPrivate('1');
    const local = await createWebhook('https://localhost/hooks', ['link.created']);
    expect(local.secret).toMatch(/^whsec_/);
    expect((await owner.client.get<Webhook[]>('/api/webhooks')).text).not.toContain(local.secret);
    expect((await owner.client.request('DELETE', `/api/webhooks/${local.id}`)).status).toBe(200);
  });

  it('delivers a signed link.created within 2 seconds of a link made with a links:write API key', async () => {
    await allowPrivate('1');
    const hook = await receiver();
    const webhook = await createWebhook(hook.url, ['link.created', 'link.deleted']);
    const key = await owner.client.post<CreatedApiKey>('/api/api-keys', {
      name: 'CMS',
      scopes: ['links:write'],
    });
    const started = Date.now();
    // What `curl -H "Authorization: Bearer $KEY" -d '{"originalUrl":"https://example.com"}' …/api/links` sends.
    const made = await fetch(`${t.api.baseUrl}/api/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ originalUrl: 'https://example.com' }),
    });
    expect(made.status).toBe(201);
    const link = (await made.json()) as Link;
    await until(
      async () => deliveriesOf(hook, 'link.created'),
      (found) => found.length > 0,
      2_000,
      10,
    );
    const [delivery] = deliveriesOf(hook, 'link.created');
    expect(delivery, 'a link.created delivery within 2 seconds').toBeDefined();
    if (!delivery) return;
    expect(delivery.at - started).toBeLessThan(2_000);
    expect(delivery.json).toMatchObject({
      type: 'link.created',
      data: { linkId: link.id, code: link.shortCode, originalUrl: 'https://example.com/' },
    });
    expect(Date.parse(delivery.json.time)).not.toBeNaN();
    const signature = String(delivery.headers['sniplink-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(webhook.secret, delivery.body, signature)).toBe(true);
    expect(verifySignature('whsec_wrong', delivery.body, signature)).toBe(false);
    expect(delivery.headers['idempotency-key']).toBe(delivery.json.id);
  });

  it('sends an event again after a 500, and only once after the 200', async () => {
    await allowPrivate('1');
    const hook = await receiver();
    hook.answers.push(500);
    const webhook = await createWebhook(hook.url, ['link.updated']);
    const link = await owner.client.post<Link>('/api/links', { originalUrl: 'https://example.org' });
    expect((await owner.client.patch(`/api/links/${link.body.id}`, { title: 'Renamed' })).status).toBe(200);
    await until(
      async () => deliveriesOf(hook, 'link.updated'),
      (found) => found.length >= 2,
      5_000,
    );
    // Time for a wrongful third try (the backoff is 200 ms, then 400 ms).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const updates = deliveriesOf(hook, 'link.updated');
    expect(updates).toHaveLength(2);
    expect(updates[0]?.json.id).toBe(updates[1]?.json.id);
    expect(updates[1]?.body).toBe(updates[0]?.body);
    expect(updates[0]?.json.data).toMatchObject({
      linkId: link.body.id,
      title: 'Renamed',
      changed: ['title'],
    });
    const log = await owner.client.get<WebhookAttempt[]>(`/api/webhooks/${webhook.id}/deliveries`);
    expect(log.body.map((attempt) => attempt.statusCode)).toEqual([200, 500]);
    expect(log.body[0]).toMatchObject({ type: 'link.updated', eventId: updates[0]?.json.id });
  });

  it('sends a test event on request, and lists it in the log', async () => {
    await allowPrivate('1');
    const hook = await receiver();
    const webhook = await createWebhook(hook.url, ['link.deleted']);
    const sent = await owner.client.post<{ eventId: string }>(`/api/webhooks/${webhook.id}/test`, {});
    expect(sent.status).toBe(202);
    const log = await until(
      async () => (await owner.client.get<WebhookAttempt[]>(`/api/webhooks/${webhook.id}/deliveries`)).body,
      (attempts) => attempts.length > 0,
    );
    expect(log[0]).toMatchObject({ type: 'webhook.test', eventId: sent.body.eventId, statusCode: 200 });
    expect(
      verifySignature(
        webhook.secret,
        hook.received[0]?.body ?? '',
        String(hook.received[0]?.headers['sniplink-signature']),
      ),
    ).toBe(true);
  });

  it('batches link.clicked: 1,000 clicks make one delivery per window with the count', async () => {
    await allowPrivate('1');
    const hook = await receiver();
    await createWebhook(hook.url, ['link.clicked']);
    const link = (await owner.client.post<Link>('/api/links', { originalUrl: 'https://example.net' })).body;
    const clicks = Array.from({ length: 1_000 }, () => clickMessage(sampleClick(link.id)));
    const bots = Array.from({ length: 50 }, () => clickMessage(sampleClick(link.id, { bot: true })));
    await t.api.runtime.clickStream.publish([...clicks, ...bots]);
    const counted = await until(
      async () => deliveriesOf(hook, 'link.clicked'),
      (found) => found.reduce((sum, each) => sum + Number(each.json.data.clicks), 0) >= 1_000,
      15_000,
    );
    // Another window's worth of waiting: nothing more may come.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const batches = deliveriesOf(hook, 'link.clicked');
    expect(batches.reduce((sum, each) => sum + Number(each.json.data.clicks), 0)).toBe(1_000);
    // One publish is read within one or two windows of 2 s: never a delivery per click.
    expect(counted.length).toBeLessThanOrEqual(2);
    expect(new Set(batches.map((each) => each.json.data.from)).size).toBe(batches.length);
    expect(batches[0]?.json.data).toMatchObject({ linkId: link.id, code: link.shortCode });
  });

  it('disables an endpoint that fails for the whole retry window and tells its owner', async () => {
    await allowPrivate('1');
    const hook = await receiver(500);
    const webhook = await createWebhook(hook.url, ['link.created']);
    await owner.client.post<Link>('/api/links', { originalUrl: 'https://example.com/failing' });
    const listed = await until(
      async () => (await owner.client.get<Webhook[]>('/api/webhooks')).body,
      (hooks) => hooks.find((each) => each.id === webhook.id)?.status === 'disabled',
      10_000,
    );
    expect(listed.find((each) => each.id === webhook.id)).toMatchObject({ status: 'disabled' });
    expect(hook.received.length).toBeGreaterThan(1);
    const email = (await t.api.runtime.accounts.user(owner.userId))?.email ?? '';
    // The first mail is the address's confirmation; the second says the endpoint was disabled.
    const mails = await waitForMails(t.api.config.dataDir, email, 2);
    expect(
      mails.some((mail) => mail.includes('Subject: A webhook of your Sniplink account was disabled')),
    ).toBe(true);
    const tried = hook.received.length;
    await owner.client.post<Link>('/api/links', { originalUrl: 'https://example.com/after' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(hook.received.length).toBe(tried);
  });
});
