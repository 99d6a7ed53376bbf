import { randomUUID } from 'node:crypto';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { webhookOutboxProjection } from './projection';
import { webhookDb } from './queries';

const ownerId = randomUUID();
const linkId = randomUUID();
const webhookId = randomUUID();

describe('webhook outbox projection', () => {
  const spec = projectionSpec(webhookOutboxProjection);
  beforeAll(async () => {
    await webhookDb(spec.db)
      .insertInto('webhooks')
      .values({
        webhook_id: webhookId,
        user_id: ownerId,
        url: 'https://hooks.example.com/in',
        events: ['link.created', 'link.updated', 'link.deleted', 'ticket.replied'],
        secret: 'whsec_test',
        created_at: new Date('2026-12-31T00:00:00Z'),
        disabled_at: null,
      })
      .execute();
    // Each event is delivered twice by the spec: the outbox holds one delivery per event all the same.
    await spec.given(
      {
        streamId: `link-${linkId}`,
        event: {
          type: 'LinkCreated',
          data: {
            linkId,
            ownerId,
            code: 'launch',
            originalUrl: 'https://example.com/',
            title: null,
            origin: 'dashboard',
          },
        },
      },
      { streamId: `link-${linkId}`, event: { type: 'LinkRetitled', data: { title: 'Launch' } } },
      { streamId: `link-${linkId}`, event: { type: 'LinkDeleted', data: {} } },
    );
  });

  it('queues one delivery per event for the owner, with the link as it stood after it', async () => {
    const deliveries = await webhookDb(spec.db)
      .selectFrom('webhook_deliveries')
      .selectAll()
      .orderBy('created_at')
      .execute();
    expect(deliveries.map((delivery) => delivery.type)).toEqual([
      'link.created',
      'link.updated',
      'link.deleted',
    ]);
    const updated = JSON.parse(deliveries[1]?.body ?? '{}');
    expect(updated).toMatchObject({
      type: 'link.updated',
      data: { linkId, code: 'launch', title: 'Launch', changed: ['title'] },
    });
    expect(new Set(deliveries.map((delivery) => delivery.webhook_id))).toEqual(new Set([webhookId]));
  });
});
