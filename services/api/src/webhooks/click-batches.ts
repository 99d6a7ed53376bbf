import { readClickMessage } from '@sniplink/contracts';
import type {
  ClickStream,
  Clock,
  ConsumedBatch,
  Consumer,
  Database,
  Logger,
  Offsets,
} from '@sniplink/platform';
import {
  anyClickSubscription,
  linksWithClickSubscribers,
  queueDeliveries,
  skipClicksWhileUnsubscribed,
  webhookDb,
  webhookLink,
} from '@sniplink/projections/webhooks/queries';
import { type Kysely, sql } from 'kysely';

/** How soon a new `link.clicked` subscription starts the counting, or the last one gone stops it. */
const SUBSCRIPTION_CHECK_MS = 1_000;

/** The consumer group of the click stream whose offsets live in `webhook_click_offsets`. */
const WEBHOOK_CLICKS_GROUP = 'webhooks';

export interface ClickBatchesDeps {
  db: Kysely<Database>;
  stream: ClickStream;
  clock: Clock;
  log: Logger;
  /** One `link.clicked` delivery per link per this many milliseconds, at most. */
  windowMs: number;
}

/**
 * `link.clicked`, batched: a consumer of the click stream counts each subscribed link's human clicks per
 * window (the window they are counted in, so a window is closed once and for all when it ends), storing
 * its offsets in the same transaction as the counts, so a restart neither loses nor recounts a click. Once
 * a window is over, its counts become one delivery per link, with the count, and leave the table in the
 * same transaction: a viral link costs its receiver one request a window.
 */
export class ClickBatches {
  private consumer: Consumer | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private stopped = false;
  private readonly db;

  constructor(private readonly deps: ClickBatchesDeps) {
    this.db = webhookDb(deps.db);
  }

  /**
   * Reads the click stream only while some live endpoint subscribes to `link.clicked`: every redirect's
   * click would otherwise be read a second time for nobody. While none does, the stored offsets follow the
   * stream's end, so a new subscription counts the clicks from about when it was made, not a backlog.
   */
  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.check(), SUBSCRIPTION_CHECK_MS);
    this.timer.unref();
    this.check();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.checking;
    await this.consumer?.stop();
    this.consumer = undefined;
  }

  private check(): void {
    if (this.checking) return;
    this.checking = this.follow()
      .catch((err: unknown) => this.deps.log.error({ err }, 'webhooks: checking click subscriptions failed'))
      .finally(() => {
        this.checking = undefined;
      });
  }

  private async follow(): Promise<void> {
    const wanted = await anyClickSubscription(this.db);
    if (this.stopped) return;
    if (wanted && !this.consumer) {
      this.consumer = this.deps.stream.consume({
        groupId: WEBHOOK_CLICKS_GROUP,
        autoCommit: false,
        startOffsets: () => this.storedOffsets(),
        eachBatch: (batch) => this.count(batch),
        onError: (err) => this.deps.log.error({ err }, 'webhooks: counting clicks failed; reading again'),
      });
    } else if (!wanted && this.consumer) {
      const consumer = this.consumer;
      this.consumer = undefined;
      await consumer.stop();
    }
    if (!wanted) await skipClicksWhileUnsubscribed(this.db, await this.deps.stream.endOffsets());
  }

  private async storedOffsets(): Promise<Offsets> {
    const rows = await this.db.selectFrom('webhook_click_offsets').selectAll().execute();
    return new Map(rows.map((row) => [row.partition, BigInt(row.next_offset)]));
  }

  private windowOf(now: Date): Date {
    return new Date(Math.floor(now.getTime() / this.deps.windowMs) * this.deps.windowMs);
  }

  private async count(batch: ConsumedBatch): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const stored = await trx
        .selectFrom('webhook_click_offsets')
        .select('next_offset')
        .where('partition', '=', batch.partition)
        .forUpdate()
        .executeTakeFirst();
      const from = stored ? BigInt(stored.next_offset) : 0n;
      // Messages below the stored offset were counted by an earlier reader of this partition.
      const perLink = new Map<string, number>();
      for (const message of batch.messages) {
        if (message.offset < from) continue;
        const click = readClickMessage(message.key, message.value);
        if (click && !click.bot) perLink.set(click.linkId, (perLink.get(click.linkId) ?? 0) + 1);
      }
      const subscribed = await linksWithClickSubscribers(trx, [...perLink.keys()]);
      const window = this.windowOf(this.deps.clock.now());
      for (const linkId of subscribed) {
        const clicks = perLink.get(linkId) ?? 0;
        await trx
          .insertInto('webhook_click_windows')
          .values({ link_id: linkId, window_start: window, clicks })
          .onConflict((oc) =>
            oc.columns(['link_id', 'window_start']).doUpdateSet({
              clicks: sql`webhook_click_windows.clicks + ${clicks}`,
            }),
          )
          .execute();
      }
      const next = batch.nextOffset > from ? batch.nextOffset : from;
      await trx
        .insertInto('webhook_click_offsets')
        .values({ partition: batch.partition, next_offset: next.toString() })
        .onConflict((oc) => oc.column('partition').doUpdateSet({ next_offset: next.toString() }))
        .execute();
    });
  }

  /** Turns every window that is over into one `link.clicked` delivery per link. Returns how many. */
  async flush(): Promise<number> {
    const ended = new Date(this.windowOf(this.deps.clock.now()).getTime());
    return this.db.transaction().execute(async (trx) => {
      const windows = await trx
        .deleteFrom('webhook_click_windows')
        .where('window_start', '<', ended)
        .returningAll()
        .execute();
      let queued = 0;
      for (const window of windows) {
        const link = await webhookLink(trx, window.link_id);
        if (!link) continue;
        const to = new Date(window.window_start.getTime() + this.deps.windowMs);
        queued += await queueDeliveries(
          trx,
          {
            userId: link.owner_id,
            eventId: `clicks-${window.link_id}-${window.window_start.getTime()}`,
            type: 'link.clicked',
            time: to,
            data: {
              linkId: window.link_id,
              code: link.code,
              clicks: window.clicks,
              from: window.window_start.toISOString(),
              to: to.toISOString(),
            },
          },
          { now: this.deps.clock.now() },
        );
      }
      return queued;
    });
  }
}
