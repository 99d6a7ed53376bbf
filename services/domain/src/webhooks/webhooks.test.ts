import { MAX_WEBHOOKS, type WebhookEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { type WebhooksCommand, webhooksDecider } from './webhooks';

const given = specFor(webhooksDecider);

const hookId = (n: number) => `01890000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const create = (n: number): WebhooksCommand => ({
  type: 'CreateWebhook',
  webhookId: hookId(n),
  url: 'enc:v1:url',
  events: ['link.created'],
});
const created = (n: number): WebhookEvent => ({
  type: 'WebhookCreated',
  data: { webhookId: hookId(n), url: 'enc:v1:url', events: ['link.created'] },
});
const since = new Date('2026-11-27T10:00:00.000Z');
const disabled = (n: number): WebhookEvent => ({
  type: 'WebhookDisabled',
  data: { webhookId: hookId(n), failingSince: since.toISOString() },
});

describe("a user's webhooks", () => {
  it('creates an endpoint up to the limit; a deleted one makes room', () => {
    given([])
      .when(create(1))
      .then([created(1)]);
    const full = Array.from({ length: MAX_WEBHOOKS }, (_, i) => created(i + 1));
    given(full).when(create(99)).thenThrows({ status: 409 });
    given([...full, { type: 'WebhookDeleted', data: { webhookId: hookId(1), by: 'owner' } }])
      .when(create(99))
      .then([created(99)]);
  });

  it('disables a live endpoint once, and knows no endpoint that is not live', () => {
    given([created(1)])
      .when({ type: 'DisableWebhook', webhookId: hookId(1), failingSince: since })
      .then([disabled(1)]);
    given([created(1), disabled(1)])
      .when({ type: 'DisableWebhook', webhookId: hookId(1), failingSince: since })
      .then([]);
    given([])
      .when({ type: 'DeleteWebhook', webhookId: hookId(1) })
      .thenThrows({ status: 404 });
    given([])
      .when({ type: 'RotateWebhookSecret', webhookId: hookId(1) })
      .thenThrows({ status: 404 });
  });

  it('deletes every live endpoint on erasure', () => {
    given([created(1), created(2)])
      .when({ type: 'DeleteAllWebhooks' })
      .then([
        { type: 'WebhookDeleted', data: { webhookId: hookId(1), by: 'erasure' } },
        { type: 'WebhookDeleted', data: { webhookId: hookId(2), by: 'erasure' } },
      ]);
  });
});
