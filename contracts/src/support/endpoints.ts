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
  listTickets: endpoint('GET /api/support/tickets', { answers: { 200: z.array(ticketSchema) } }),
  openTicket: endpoint('POST /api/support/tickets', { body: openTicketBody, answers: { 201: ticketSchema } }),
  closeTicket: endpoint('PATCH /api/support/tickets/:id', {
    body: closeTicketBody,
    answers: { 200: ticketSchema },
  }),
  ticketMessages: endpoint('GET /api/support/tickets/:id/messages', {
    answers: { 200: z.array(ticketMessageSchema) },
  }),
  replyToTicket: endpoint('POST /api/support/tickets/:id/messages', {
    body: ticketMessageBody,
    answers: { 201: ticketMessageSchema },
  }),
};

/** The console's Support tab, behind the admin gate. */
export const supportAdminEndpoints = {
  adminTickets: endpoint('GET /api/admin/tickets', {
    querystring: adminTicketsQuery,
    answers: { 200: adminTicketsPageSchema },
  }),
  adminTicketMessages: endpoint('GET /api/admin/tickets/:id/messages', {
    answers: { 200: z.array(ticketMessageSchema) },
  }),
  assignTicket: endpoint('PATCH /api/admin/tickets/:id/assign', { answers: { 200: adminTicketSchema } }),
  replyAsSupport: endpoint('POST /api/admin/tickets/:id/reply', {
    body: ticketMessageBody,
    answers: { 201: ticketMessageSchema },
  }),
  setTicketStatus: endpoint('PATCH /api/admin/tickets/:id/status', {
    body: ticketStatusBody,
    answers: { 200: adminTicketSchema },
  }),
};
