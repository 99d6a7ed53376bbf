import {
  type CreatedWebhook,
  type createWebhookBody,
  WEBHOOK_LOG_SIZE,
  WEBHOOK_TEST_EVENT,
  type Webhook,
  type WebhookAttempt,
  type WebhookEvent,
  type WebhookEventType,
  webhookStream,
} from '@sniplink/contracts';
import { NotFoundError, type WebhooksCommand, type WebhooksState, webhooksDecider } from '@sniplink/domain';
import { type CommandPipeline, commandHandler, type Database, type Keyring } from '@sniplink/platform';
import {
  announceQueued,
  queueDeliveries,
  type WebhookTables,
  webhookDb,
} from '@sniplink/projections/webhooks/queries';
import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { ServiceDeps } from '../shared/service-deps';
import type { Settings } from '../shared/settings';
import { checkEndpoint } from './address-guard';
import { newWebhookSecret } from './signing';

export interface WebhookServiceDeps extends Pick<ServiceDeps, 'eventStore' | 'clock' | 'ids'> {
  db: Kysely<Database>;
  keyring: Keyring;
  /** `webhooks.allow_private`, read on every check (an admin's change applies at once). */
  settings: Settings;
}

type NewWebhook = z.output<typeof createWebhookBody>;
type Row = Selectable<WebhookTables['webhooks']>;

const toWebhook = (row: Row): Webhook => ({
  id: row.webhook_id,
  url: row.url,
  events: row.events as WebhookEventType[],
  status: row.status,
  createdAt: row.created_at.toISOString(),
  disabledAt: row.disabled_at?.toISOString() ?? null,
});

/**
 * A user's webhooks: their life is the user's stream `webhooks-{userId}` (created, deleted, secret rotated,
 * disabled, with the acting user); the URL, events and signing secret the dispatcher uses are the
 * operational `webhooks` row. Each command appends first and writes the row after, so the log never
 * misses a change a user saw; a delete of an endpoint the stream has ended already deletes the row again.
 */
export class WebhookService {
  private readonly hooks: CommandPipeline<WebhooksCommand, WebhooksState, WebhookEvent>;
  private readonly db;

  constructor(private readonly deps: WebhookServiceDeps) {
    this.hooks = commandHandler(deps, { decider: webhooksDecider, stream: webhookStream });
    this.db = webhookDb(deps.db);
  }

  /** Whether private and loopback endpoints are allowed (the admin's `webhooks.allow_private`). */
  allowsPrivate(): boolean {
    return this.deps.settings.current().webhooksAllowPrivate === 1;
  }

  async create(userId: string, { url, events }: NewWebhook): Promise<CreatedWebhook> {
    await checkEndpoint(url, this.allowsPrivate());
    const now = this.deps.clock.now();
    const webhookId = this.deps.ids.newId();
    const secret = newWebhookSecret();
    await this.hooks.handle(userId, {
      type: 'CreateWebhook',
      webhookId,
      url: await this.deps.keyring.encrypt(userId, url),
      events,
    });
    const row = await this.db
      .insertInto('webhooks')
      .values({
        webhook_id: webhookId,
        user_id: userId,
        url,
        events,
        secret,
        created_at: now,
        disabled_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...toWebhook(row), secret };
  }

  async list(userId: string): Promise<Webhook[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toWebhook);
  }

  private async own(userId: string, webhookId: string): Promise<Row> {
    const row = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('webhook_id', '=', webhookId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('No such webhook');
    return row;
  }

  async delete(userId: string, webhookId: string): Promise<void> {
    await this.own(userId, webhookId);
    await this.hooks.handle(userId, { type: 'DeleteWebhook', webhookId }).catch((error: unknown) => {
      // The stream ended it already (a delete cut short before the row went): finish it.
      if (!(error instanceof NotFoundError)) throw error;
    });
    await this.db.deleteFrom('webhooks').where('webhook_id', '=', webhookId).execute();
  }

  /** A new signing secret, shown this once; deliveries from now on are signed with it. */
  async rotateSecret(userId: string, webhookId: string): Promise<CreatedWebhook> {
    await this.own(userId, webhookId);
    await this.hooks.handle(userId, { type: 'RotateWebhookSecret', webhookId });
    const secret = newWebhookSecret();
    const row = await this.db
      .updateTable('webhooks')
      .set({ secret })
      .where('webhook_id', '=', webhookId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...toWebhook(row), secret };
  }

  /** Queues a test event for the endpoint (whatever it subscribes to); the log shows how it went. */
  async sendTest(userId: string, webhookId: string): Promise<string> {
    const row = await this.own(userId, webhookId);
    if (row.status !== 'active') throw new NotFoundError('This webhook is disabled: create it again');
    const eventId = this.deps.ids.newId();
    const now = this.deps.clock.now();
    await queueDeliveries(
      this.db,
      {
        userId,
        eventId,
        type: WEBHOOK_TEST_EVENT,
        time: now,
        data: { webhookId, message: 'A test event sent from Profile' },
      },
      { webhookId, now },
    );
    announceQueued();
    return eventId;
  }

  /** The endpoint's last attempts, newest first. */
  async attempts(userId: string, webhookId: string): Promise<WebhookAttempt[]> {
    await this.own(userId, webhookId);
    const rows = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('attempt_id', 'desc')
      .limit(WEBHOOK_LOG_SIZE)
      .execute();
    return rows.map((row) => ({
      id: String(row.attempt_id),
      at: row.at.toISOString(),
      eventId: row.event_id,
      type: row.type,
      statusCode: row.status_code,
      durationMs: row.duration_ms,
      error: row.error,
    }));
  }

  /** Deliveries failed for the whole retry window: the endpoint stops, in the log and in the table. */
  async disable(userId: string, webhookId: string, failingSince: Date): Promise<void> {
    await this.hooks.handle(userId, { type: 'DisableWebhook', webhookId, failingSince });
    await this.db
      .updateTable('webhooks')
      .set({ status: 'disabled', disabled_at: this.deps.clock.now() })
      .where('webhook_id', '=', webhookId)
      .execute();
  }

  /** The account is being erased: every endpoint it holds ends, in the log and in the table. */
  async deleteAllOf(userId: string): Promise<void> {
    await this.hooks.handle(userId, { type: 'DeleteAllWebhooks' });
    await this.db.deleteFrom('webhooks').where('user_id', '=', userId).execute();
  }
}
