import { ticketEvents, ticketStream, userEvents, userStream } from '@sniplink/contracts';
import type { Keyring, ReadModel, RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

/** The support read model as its readers name it (the projection needs the keyring to be built). */
export const supportReadModel: ReadModel = { name: 'support' };

/**
 * The support read model: tickets and their conversations with the texts decrypted under the owner's
 * key. `UserErased` drops the owner's tickets and messages; a rebuild after the key was shredded cannot
 * decrypt them and writes nothing for them. Idempotent: a ticket row is written once and then only by an
 * event of a later revision of its stream; a message is inserted once.
 */
export function supportProjection(keyring: Keyring): Projection {
  return {
    name: supportReadModel.name,
    version: 1,
    handles: [...ticketEvents.types, 'UserErased'],
    tables: ['rm_support_tickets', 'rm_support_messages'],
    apply: eachInOrder((trx, event) => applySupportEvent(trx, keyring, event)),
  };
}

async function applySupportEvent(
  trx: Transaction<ReadModelDatabase>,
  keyring: Keyring,
  recorded: RecordedEvent,
): Promise<void> {
  if (userEvents.includes(recorded)) {
    // Only UserErased is delivered: the account's tickets and their conversations go with it.
    const userId = userStream.idOf(recorded);
    await trx.deleteFrom('rm_support_messages').where('user_id', '=', userId).execute();
    await trx.deleteFrom('rm_support_tickets').where('user_id', '=', userId).execute();
    return;
  }
  const event = ticketEvents.narrow(recorded);
  const ticketId = ticketStream.idOf(recorded);
  const at = recorded.occurredAt;
  const revision = recorded.revision.toString();
  if (event.type === 'TicketOpened') {
    const { userId, priority, messageId } = event.data;
    const subject = await keyring.decrypt(userId, event.data.subject);
    const message = await keyring.decrypt(userId, event.data.message);
    // The owner's key is gone (erased): nothing of the ticket can be shown.
    if (subject === null || message === null) return;
    await trx
      .insertInto('rm_support_tickets')
      .values({
        ticket_id: ticketId,
        user_id: userId,
        subject,
        message,
        priority,
        status: 'open',
        created_at: at,
        updated_at: at,
        last_revision: revision,
      })
      .onConflict((oc) => oc.column('ticket_id').doNothing())
      .execute();
    await insertMessage(trx, { messageId, ticketId, userId, message, isFromAdmin: false, at });
    return;
  }
  const ticket = await trx
    .selectFrom('rm_support_tickets')
    .select('user_id')
    .where('ticket_id', '=', ticketId)
    .executeTakeFirst();
  if (!ticket) return;
  const touch = trx
    .updateTable('rm_support_tickets')
    .where('ticket_id', '=', ticketId)
    .where('last_revision', '<', revision);
  switch (event.type) {
    case 'TicketMessagePosted': {
      const message = await keyring.decrypt(ticket.user_id, event.data.message);
      if (message === null) return;
      const { messageId, fromStaff } = event.data;
      await insertMessage(trx, {
        messageId,
        ticketId,
        userId: ticket.user_id,
        message,
        isFromAdmin: fromStaff,
        at,
      });
      await touch.set({ updated_at: at, last_revision: revision }).execute();
      return;
    }
    case 'TicketAssigned':
      await touch
        .set({ assignee_id: event.data.assigneeId, updated_at: at, last_revision: revision })
        .execute();
      return;
    case 'TicketStatusChanged': {
      const { status, autoCloseAfter } = event.data;
      await touch
        .set({
          status,
          auto_close_after: autoCloseAfter ? new Date(autoCloseAfter) : null,
          updated_at: at,
          last_revision: revision,
        })
        .execute();
      return;
    }
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

async function insertMessage(
  trx: Transaction<ReadModelDatabase>,
  m: { messageId: string; ticketId: string; userId: string; message: string; isFromAdmin: boolean; at: Date },
): Promise<void> {
  await trx
    .insertInto('rm_support_messages')
    .values({
      message_id: m.messageId,
      ticket_id: m.ticketId,
      user_id: m.userId,
      message: m.message,
      is_from_admin: m.isFromAdmin,
      created_at: m.at,
    })
    .onConflict((oc) => oc.column('message_id').doNothing())
    .execute();
}
