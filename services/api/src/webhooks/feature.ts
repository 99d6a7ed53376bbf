import { webhookEvents } from '@sniplink/contracts';
import * as webhookTables from '@sniplink/platform/migrations/2026-11-28T17-webhooks';
import { webhookOutboxProjection } from '@sniplink/projections/webhooks/projection';
import { defineFeature } from '../feature';
import { ClickBatches } from './click-batches';
import { WebhookDispatcher } from './dispatcher';
import { webhookRoutes } from './routes';
import { WebhookService } from './webhook-service';

/**
 * Webhooks: a user's endpoints are told of their links' life, their clicks (batched) and Support's replies,
 * signed. The outbox is filled by a projection of the event log and by a consumer of the click stream, and
 * sent by a dispatcher, both where the projections run; an erasure deletes the account's endpoints.
 */
export const webhooksFeature = defineFeature({
  name: 'webhooks',
  build: ({ db, eventStore, keyring, clock, ids, settings, accounts }) => {
    const webhooks = new WebhookService({ db, eventStore, keyring, clock, ids, settings });
    accounts.endOnErasure((userId) => webhooks.deleteAllOf(userId));
    return webhooks;
  },
  routes: (webhooks) => [(api) => webhookRoutes(api, { webhooks })],
  workers: (webhooks, { db, clock, log, mailer, accounts, config, clickStream }) => [
    new WebhookDispatcher({
      db,
      clock,
      log,
      mailer,
      accounts,
      webhooks,
      publicUrl: config.publicUrl,
      retryBaseMs: config.webhooks.retryBaseMs,
      retryForMs: config.webhooks.retryForMs,
      clicks: new ClickBatches({
        db,
        stream: clickStream,
        clock,
        log,
        windowMs: config.webhooks.clickWindowMs,
      }),
    }),
  ],
  migrations: { '2026-11-28T17-webhooks': webhookTables },
  events: [webhookEvents],
  projections: () => [webhookOutboxProjection],
});
