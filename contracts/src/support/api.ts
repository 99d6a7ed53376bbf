import { z } from 'zod';
import { pageNumber } from '../paging';
import { visibleText as text } from '../text';
import { ticketPriorities, ticketStatuses } from './events';

/** A subject fits a line, a message a few pages. */
export const TICKET_SUBJECT_MAX = 200;
export const TICKET_MESSAGE_MAX = 10_000;
/** A resolved ticket closes by itself this long after it was resolved, unless its owner replies first. */
export const TICKET_AUTO_CLOSE_DAYS = 7;
/** The Support tab's page size. */
export const ADMIN_TICKETS_PAGE_SIZE = 20;

/** `POST /api/support/tickets`: subject, message and priority (default medium). */
export const openTicketBody = z
  .object({
    subject: text(TICKET_SUBJECT_MAX),
    message: text(TICKET_MESSAGE_MAX),
    priority: z.enum(ticketPriorities).default('medium'),
  })
  .meta({ id: 'OpenTicketBody' });
export type OpenTicketBody = z.input<typeof openTicketBody>;

/** `POST /api/support/tickets/{id}/messages` and `POST /api/admin/tickets/{id}/reply`: never blank. */
export const ticketMessageBody = z.object({ message: text(TICKET_MESSAGE_MAX) });
export type TicketMessageBody = z.infer<typeof ticketMessageBody>;

/** `PATCH /api/support/tickets/{id}`: its owner closes it. */
export const closeTicketBody = z.object({ status: z.literal('closed') });
export type CloseTicketBody = z.infer<typeof closeTicketBody>;

/** `PATCH /api/admin/tickets/{id}/status`: staff resolve or close it. */
export const ticketStatusBody = z.object({ status: z.enum(['resolved', 'closed']) });
export type TicketStatusBody = z.infer<typeof ticketStatusBody>;

/** A ticket as its owner sees it. `message` is the first message. */
export const ticketSchema = z
  .object({
    id: z.string(),
    subject: z.string(),
    message: z.string(),
    priority: z.enum(ticketPriorities),
    status: z.enum(ticketStatuses),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Ticket' });
export type Ticket = z.infer<typeof ticketSchema>;

/** One message of a ticket's conversation. */
export const ticketMessageSchema = z
  .object({
    id: z.string(),
    message: z.string(),
    isFromAdmin: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'TicketMessage' });
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

/** A ticket as the console lists it, with the owner's address and assignee. */
export const adminTicketSchema = ticketSchema.extend({
  userId: z.string(),
  userEmail: z.string().nullable(),
  assignedTo: z.string().nullable(),
});
export type AdminTicket = z.infer<typeof adminTicketSchema>;

/** How many tickets stand in each status (the Support tab's counts). */
export const ticketCountsSchema = z.object({
  open: z.number().int(),
  in_progress: z.number().int(),
  resolved: z.number().int(),
  closed: z.number().int(),
});
export type TicketCounts = z.infer<typeof ticketCountsSchema>;

/** `GET /api/admin/tickets?status=&priority=&page=`: urgent first, then newest. */
export const adminTicketsQuery = z.object({
  status: z.enum(ticketStatuses).optional(),
  priority: z.enum(ticketPriorities).optional(),
  page: pageNumber(10_000),
});
export type AdminTicketsQuery = z.input<typeof adminTicketsQuery>;

export const adminTicketsPageSchema = z.object({
  tickets: z.array(adminTicketSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The tickets the filters match. */
  total: z.number().int(),
  /** Every ticket by status, whatever the filters. */
  counts: ticketCountsSchema,
});
export type AdminTicketsPage = z.infer<typeof adminTicketsPageSchema>;
