import { z } from 'zod';
import { encrypted } from '../accounts/events';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';

/** How urgent the user says their ticket is. */
export const ticketPriorities = ['low', 'medium', 'high', 'urgent'] as const;
export type TicketPriority = (typeof ticketPriorities)[number];

/**
 * A ticket's status: open until staff take it up (an admin assigns it or
 * replies: in_progress), resolved by an admin, closed by its owner or by itself 7 days after resolved.
 */
export const ticketStatuses = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

/** Who moved a ticket: its owner, a member of staff (an admin), or the auto-close sweep. */
export const ticketMovers = ['owner', 'staff', 'system'] as const;

/**
 * Events of a ticket's stream `ticket-{ticketId}`. The subject and every message are the owner's personal
 * data (staff replies too: they are about the user), so they are ciphertext under the owner's key: once the
 * account is erased and its key shredded, nobody can read them back, in the log or in a rebuild.
 */
export const ticketEvents = eventGroup(
  defineEvent({
    type: 'TicketOpened',
    version: 1,
    schema: z.object({
      ticketId: z.uuid(),
      userId: z.uuid(),
      subject: encrypted,
      /** The first message, with its own id in the conversation. */
      messageId: z.uuid(),
      message: encrypted,
      priority: z.enum(ticketPriorities),
    }),
  }),
  defineEvent({
    type: 'TicketMessagePosted',
    version: 1,
    schema: z.object({
      messageId: z.uuid(),
      message: encrypted,
      /** Written by staff ("Support Team"), not by the ticket's owner. */
      fromStaff: z.boolean(),
      authorId: z.uuid(),
    }),
  }),
  defineEvent({ type: 'TicketAssigned', version: 1, schema: z.object({ assigneeId: z.uuid() }) }),
  defineEvent({
    type: 'TicketStatusChanged',
    version: 1,
    schema: z.object({
      status: z.enum(ticketStatuses),
      by: z.enum(ticketMovers),
      /** Set when resolved: the instant from which the auto-close sweep closes it (resolved + 7 days). */
      autoCloseAfter: z.iso.datetime().nullable(),
    }),
  }),
);
export type TicketEvent = EventsIn<typeof ticketEvents>;
