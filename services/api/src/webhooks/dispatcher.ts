import { type Clock, type Database, type Logger, type Mailer, runAs } from '@sniplink/platform';
import { deliveriesQueued, webhookDb } from '@sniplink/projections/webhooks/queries';
import { type Kysely, sql } from 'kysely';
import type { AccountService } from '../accounts/accounts';
import { checkEndpoint } from './address-guard';
import type { ClickBatches } from './click-batches';
import { type DeliveryOutcome, send } from './sender';
import type { WebhookService } from './webhook-service';

/** How often the dispatcher looks for due deliveries when nothing in this process woke it. */
const POLL_MS = 1_000;
/** A claimed delivery is not claimed again for this long: a process that died mid-send leaves it to another. */
const CLAIM_LEASE_MS = 60_000;
/** The longest wait between two attempts: past an hour, once an hour until the retry window ends. */
const MAX_BACKOFF_MS = 60 * 60_000;
const CLAIM_BATCH = 20;

export interface DispatcherDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  accounts: Pick<AccountService, 'user'>;
  webhooks: WebhookService;
  clicks: ClickBatches;
  publicUrl: string;
  retryBaseMs: number;
  retryForMs: number;
}

interface Claimed {
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  type: string;
  body: string;
  attempts: number;
  created_at: Date;
  url: string;
  secret: string;
  user_id: string;
  webhook_status: string;
}

/**
 * Sends the outbox: every pending delivery that is due, signed, to its endpoint's checked address. A 2xx
 * answer delivers it; anything else is retried with exponential backoff (retryBaseMs, doubling, at most an
 * hour apart) until `retryForMs` after the event, when the endpoint is disabled and its owner told (by
 * mail, and on the dashboard). The state is all in `webhook_deliveries`, so a restart resumes where it
 * stopped; a delivery sent but not yet marked when the process died is sent again (at-least-once: the
 * event id is the receiver's idempotency key).
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly db;
  private readonly wake = () => this.kick();

  constructor(private readonly deps: DispatcherDeps) {
    this.db = webhookDb(deps.db);
  }

  start(): void {
    this.deps.clicks.start();
    deliveriesQueued.addEventListener('queued', this.wake);
    this.timer = setInterval(this.wake, POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    deliveriesQueued.removeEventListener('queued', this.wake);
    await this.running;
    await this.deps.clicks.stop();
  }

  /** Runs a pass now, or right after the one under way. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = runAs('system', () => this.pass())
      .catch((err: unknown) => this.deps.log.error({ err }, 'webhooks: a delivery pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async pass(): Promise<void> {
    await this.deps.clicks.flush();
    for (;;) {
      if (this.stopped) return;
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    }
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.deps.clock.now();
    const lease = new Date(now.getTime() + CLAIM_LEASE_MS);
    const { rows } = await sql<Claimed>`
      UPDATE webhook_deliveries d SET next_attempt_at = ${lease}
      FROM webhooks w
      WHERE w.webhook_id = d.webhook_id AND d.delivery_id IN (
        SELECT delivery_id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= ${now}
        ORDER BY next_attempt_at LIMIT ${CLAIM_BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING d.delivery_id, d.webhook_id, d.event_id, d.type, d.body, d.attempts, d.created_at,
        w.url, w.secret, w.user_id::text AS user_id, w.status AS webhook_status`.execute(this.db);
    return rows;
  }

  private async attempt(delivery: Claimed): Promise<void> {
    if (delivery.webhook_status !== 'active') {
      await this.mark(delivery, 'failed');
      return;
    }
    const outcome = await this.deliver(delivery);
    await this.db
      .insertInto('webhook_attempts')
      .values({
        webhook_id: delivery.webhook_id,
        event_id: delivery.event_id,
        type: delivery.type,
        at: this.deps.clock.now(),
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        error: outcome.error,
      })
      .execute();
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    if (ok) return this.mark(delivery, 'delivered');
    await this.failed(delivery);
  }

  private async deliver(delivery: Claimed): Promise<DeliveryOutcome> {
    const now = this.deps.clock.now();
    try {
      // Checked again at every attempt (a name may resolve elsewhere since), and the address is pinned.
      const pinned = await checkEndpoint(delivery.url, this.deps.webhooks.allowsPrivate());
      return await send({ ...delivery, eventId: delivery.event_id, pinned, now });
    } catch (error) {
      return {
        statusCode: null,
        durationMs: 0,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  }

  private async mark(delivery: Claimed, status: 'delivered' | 'failed'): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status, attempts: delivery.attempts + 1 })
      .where('delivery_id', '=', delivery.delivery_id)
      .execute();
  }

  /** A failed attempt: the next one after the backoff, or, past the retry window, the endpoint stops. */
  private async failed(delivery: Claimed): Promise<void> {
    const now = this.deps.clock.now();
    const attempts = delivery.attempts + 1;
    if (now.getTime() - delivery.created_at.getTime() >= this.deps.retryForMs) {
      await this.mark(delivery, 'failed');
      await this.disable(delivery);
      return;
    }
    const backoff = Math.min(this.deps.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
    await this.db
      .updateTable('webhook_deliveries')
      .set({ attempts, next_attempt_at: new Date(now.getTime() + backoff) })
      .where('delivery_id', '=', delivery.delivery_id)
      .execute();
  }

  private async disable(delivery: Claimed): Promise<void> {
    await this.deps.webhooks.disable(delivery.user_id, delivery.webhook_id, delivery.created_at);
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('webhook_id', '=', delivery.webhook_id)
      .where('status', '=', 'pending')
      .execute();
    this.deps.log.warn(
      { webhookId: delivery.webhook_id },
      'webhooks: an endpoint failed for the retry window and is disabled',
    );
    const to = (await this.deps.accounts.user(delivery.user_id))?.email;
    if (!to) return;
    await this.deps.mailer
      .send(disabledMail(to, delivery.url, this.deps.publicUrl))
      .catch((err: unknown) => this.deps.log.error({ err }, 'webhooks: the disabled-endpoint mail failed'));
  }
}

/** Plain text only: the URL is the user's own, shown back to them alone. */
function disabledMail(to: string, url: string, publicUrl: string) {
  return {
    to,
    subject: 'A webhook of your Sniplink account was disabled',
    text: [
      'Deliveries to this webhook endpoint failed for 24 hours, so Sniplink disabled it:',
      '',
      `  ${url}`,
      '',
      `Nothing more is sent to it. Check the receiver, then create the webhook again in Profile: ${publicUrl}/profile`,
    ].join('\n'),
  };
}
