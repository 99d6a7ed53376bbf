import { linkEvents, linkStream, ticketEvents, ticketStream } from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';
import { announceQueued, queueDeliveries, type WebhookDatabase } from './queries';
import type { WebhookTables } from './tables';

/** The link events a `link.updated` delivery reports, with the field each changes. */
const changedField = {
  LinkRetitled: 'title',
  LinkRetargeted: 'originalUrl',
  LinkCodeChanged: 'code',
  LinkPaused: 'paused',
  LinkUnpaused: 'paused',
  LinkTagsChanged: 'tags',
  LinkExpiryChanged: 'expiresAt',
  LinkClickLimitChanged: 'clickLimit',
  LinkFallbackChanged: 'fallbackUrl',
  LinkPasswordSet: 'password',
  LinkPasswordRemoved: 'password',
  LinkRulesChanged: 'rules',
} as const;

const handledLinkEvents = ['LinkCreated', 'LinkOwnerChanged', 'LinkDeleted', ...Object.keys(changedField)];

/**
 * The webhooks' outbox, fed from the event log: each link or ticket event that an endpoint subscribes to
 * becomes a pending row of `webhook_deliveries`, in the same transaction as the runner's checkpoint, so a
 * crash neither loses nor doubles one (a row per event per endpoint; a second delivery of the event finds
 * it there). It keeps whose each link and ticket is, as later events do not say.
 */
export const webhookOutboxProjection: Projection = {
  name: 'webhook-outbox',
  version: 1,
  handles: [...handledLinkEvents, 'TicketOpened', 'TicketMessagePosted'],
  tables: ['rm_webhook_links', 'rm_webhook_tickets'],
  apply: eachInOrder(applyEvent),
  afterCommit: async () => {
    announceQueued();
  },
};

async function applyEvent(readModels: Transaction<ReadModelDatabase>, recorded: RecordedEvent) {
  const trx = readModels.withTables<WebhookTables>() as unknown as Transaction<WebhookDatabase>;
  if (linkEvents.includes(recorded)) await applyLinkEvent(trx, recorded);
  else if (ticketEvents.includes(recorded)) await applyTicketEvent(trx, recorded);
}

type LinkRecorded = RecordedEvent & ReturnType<typeof linkEvents.narrow<RecordedEvent>>;

async function applyLinkEvent(trx: Transaction<WebhookDatabase>, recorded: LinkRecorded) {
  const linkId = linkStream.idOf(recorded);
  const event = { type: recorded.type, data: recorded.data } as ReturnType<typeof linkEvents.narrow>;
  switch (event.type) {
    case 'LinkCreated': {
      const { ownerId, code, originalUrl, title } = event.data;
      const row = { link_id: linkId, owner_id: ownerId, code, original_url: originalUrl, title };
      await trx
        .insertInto('rm_webhook_links')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .execute();
      return queue(trx, recorded, linkId, 'link.created', []);
    }
    case 'LinkOwnerChanged':
      await trx
        .updateTable('rm_webhook_links')
        .set({ owner_id: event.data.ownerId })
        .where('link_id', '=', linkId)
        .execute();
      return;
    case 'LinkDeleted':
      await trx
        .updateTable('rm_webhook_links')
        .set({ deleted: true })
        .where('link_id', '=', linkId)
        .execute();
      return queue(trx, recorded, linkId, 'link.deleted', []);
    case 'LinkRetitled':
      await trx
        .updateTable('rm_webhook_links')
        .set({ title: event.data.title })
        .where('link_id', '=', linkId)
        .execute();
      break;
    case 'LinkRetargeted':
      await trx
        .updateTable('rm_webhook_links')
        .set({ original_url: event.data.originalUrl })
        .where('link_id', '=', linkId)
        .execute();
      break;
    case 'LinkCodeChanged':
      await trx
        .updateTable('rm_webhook_links')
        .set({ code: event.data.code })
        .where('link_id', '=', linkId)
        .execute();
      break;
  }
  const field = changedField[event.type as keyof typeof changedField];
  if (field) await queue(trx, recorded, linkId, 'link.updated', [field]);
}

/** Queues a link's event for its owner's endpoints, with the link as it stands after it. */
async function queue(
  trx: Transaction<WebhookDatabase>,
  recorded: RecordedEvent,
  linkId: string,
  type: 'link.created' | 'link.updated' | 'link.deleted',
  changed: string[],
) {
  const link = await trx
    .selectFrom('rm_webhook_links')
    .selectAll()
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  if (!link) return;
  const data = {
    linkId,
    code: link.code,
    originalUrl: link.original_url,
    title: link.title,
    ...(type === 'link.updated' ? { changed } : {}),
  };
  await queueDeliveries(trx, {
    userId: link.owner_id,
    eventId: recorded.id,
    type,
    time: recorded.occurredAt,
    data,
  });
}

async function applyTicketEvent(trx: Transaction<WebhookDatabase>, recorded: RecordedEvent) {
  const event = ticketEvents.narrow(recorded);
  const ticketId = ticketStream.idOf(recorded);
  if (event.type === 'TicketOpened') {
    await trx
      .insertInto('rm_webhook_tickets')
      .values({ ticket_id: ticketId, user_id: event.data.userId })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return;
  }
  if (event.type !== 'TicketMessagePosted' || !event.data.fromStaff) return;
  const ticket = await trx
    .selectFrom('rm_webhook_tickets')
    .select('user_id')
    .where('ticket_id', '=', ticketId)
    .executeTakeFirst();
  if (!ticket) return;
  // The reply's text is the owner's personal data, kept encrypted: the receiver is told there is one.
  await queueDeliveries(trx, {
    userId: ticket.user_id,
    eventId: recorded.id,
    type: 'ticket.replied',
    time: recorded.occurredAt,
    data: { ticketId, messageId: event.data.messageId },
  });
}
