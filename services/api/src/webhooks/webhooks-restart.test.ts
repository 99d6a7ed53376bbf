import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CreatedWebhook, Link, WebhookAttempt } from '@sniplink/contracts';
import { HttpClient } from '@sniplink/test-support/api';
import { type AppProcess, startAppProcess } from '@sniplink/test-support/app-process';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { until } from '@sniplink/test-support/until';
import { startWebhookReceiver, type WebhookReceiver } from '@sniplink/test-support/webhook-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from './signing';

/**
 * The outbox lives in the database: an app killed between a failed delivery and its retry delivers the
 * event once it is started again, with the same id and the same body.
 */
let database: TestDatabase;
let dataDir: string;
let receiver: WebhookReceiver;
let app: AppProcess | undefined;

const env = () => ({
  DATABASE_URL: database.connectionString,
  DATA_DIR: dataDir,
  ADMIN_EMAILS: 'restart.admin@example.com',
  LOG_LEVEL: 'warn',
  // The retry is due 2 s after the failure: the app is killed before then.
  WEBHOOK_RETRY_BASE_MS: '2000',
});

async function signedUp(baseUrl: string, email: string): Promise<HttpClient> {
  const client = new HttpClient(baseUrl);
  const answer = await client.post('/api/auth/register', { email, password: 'correct horse' });
  expect(answer.status, answer.text).toBe(201);
  return client;
}

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-webhooks-'));
  receiver = await startWebhookReceiver();
}, 60_000);
afterAll(async () => {
  await app?.stop('SIGKILL');
  await receiver?.close();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('webhook deliveries across a restart', () => {
  it('an app killed mid-retry delivers the event after it starts again, once', async () => {
    app = await startAppProcess(env());
    const admin = await signedUp(app.baseUrl, 'restart.admin@example.com');
    const added = await admin.post('/api/admin/config', { key: 'webhooks.allow_private', value: '1' });
    expect(added.status, added.text).toBe(201);
    const owner = await signedUp(app.baseUrl, 'restart.owner@example.com');
    receiver.answers.push(500);
    const webhook = await until(
      () => owner.post<CreatedWebhook>('/api/webhooks', { url: receiver.url, events: ['link.created'] }),
      (answer) => answer.status === 201,
    );
    expect(webhook.status, webhook.text).toBe(201);
    const link = await owner.post<Link>('/api/links', { originalUrl: 'https://example.com/restart' });
    expect(link.status).toBe(201);
    await until(
      async () => receiver.received.length,
      (count) => count >= 1,
      10_000,
    );
    expect(receiver.received).toHaveLength(1);
    // Killed once the failure is on record: a kill before that leaves the delivery claimed for a minute
    // (another process may still be sending it), which is the lease's case, not this one.
    await until(
      async () => (await owner.get<WebhookAttempt[]>(`/api/webhooks/${webhook.body.id}/deliveries`)).body,
      (attempts) => attempts.some((attempt) => attempt.statusCode === 500),
    );
    await app.stop('SIGKILL');
    app = await startAppProcess(env());
    await until(
      async () => receiver.received.length,
      (count) => count >= 2,
      // A restarted app on a busy machine takes seconds to start and to open its workers.
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(receiver.received).toHaveLength(2);
    const [failed, retried] = receiver.received;
    expect(retried?.json).toMatchObject({ type: 'link.created', data: { linkId: link.body.id } });
    expect(retried?.body).toBe(failed?.body);
    expect(
      verifySignature(
        webhook.body.secret,
        retried?.body ?? '',
        String(retried?.headers['sniplink-signature']),
      ),
    ).toBe(true);
  }, 150_000);
});
