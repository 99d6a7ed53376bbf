import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  adminTicketSchema,
  adminTicketsPageSchema,
  adminTicketsQuery,
  closeTicketBody,
  openTicketBody,
  ticketMessageBody,
  ticketMessageSchema,
  ticketSchema,
  ticketStatusBody,
} from './api';

/** The signed-in user's own tickets (the Support Center). */
export const supportEndpoints = {
  listTickets: endpoint('GET /api/support/tickets', { 200: z.array(ticketSchema) }),
  openTicket: endpoint('POST /api/support/tickets', { 201: ticketSchema }, { body: openTicketBody }),
  closeTicket: endpoint('PATCH /api/support/tickets/:id', { 200: ticketSchema }, { body: closeTicketBody }),
  ticketMessages: endpoint('GET /api/support/tickets/:id/messages', { 200: z.array(ticketMessageSchema) }),
  replyToTicket: endpoint(
    'POST /api/support/tickets/:id/messages',
    { 201: ticketMessageSchema },
    { body: ticketMessageBody },
  ),
};

/** The console's Support tab, behind the admin gate. */
export const supportAdminEndpoints = {
  adminTickets: endpoint(
    'GET /api/admin/tickets',
    { 200: adminTicketsPageSchema },
    { querystring: adminTicketsQuery },
  ),
  adminTicketMessages: endpoint('GET /api/admin/tickets/:id/messages', { 200: z.array(ticketMessageSchema) }),
  assignTicket: endpoint('PATCH /api/admin/tickets/:id/assign', { 200: adminTicketSchema }),
  replyAsSupport: endpoint(
    'POST /api/admin/tickets/:id/reply',
    { 201: ticketMessageSchema },
    { body: ticketMessageBody },
  ),
  setTicketStatus: endpoint(
    'PATCH /api/admin/tickets/:id/status',
    { 200: adminTicketSchema },
    { body: ticketStatusBody },
  ),
};
