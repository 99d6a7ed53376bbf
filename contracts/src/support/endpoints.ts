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

const ticketParams = z.object({ id: z.string() });

/** The signed-in user's own tickets (the Support Center). */
export const supportEndpoints = {
  listTickets: endpoint({
    method: 'GET',
    path: '/api/support/tickets',
    answers: { 200: z.array(ticketSchema) },
  }),
  openTicket: endpoint({
    method: 'POST',
    path: '/api/support/tickets',
    body: openTicketBody,
    answers: { 201: ticketSchema },
  }),
  closeTicket: endpoint({
    method: 'PATCH',
    path: '/api/support/tickets/:id',
    params: ticketParams,
    body: closeTicketBody,
    answers: { 200: ticketSchema },
  }),
  ticketMessages: endpoint({
    method: 'GET',
    path: '/api/support/tickets/:id/messages',
    params: ticketParams,
    answers: { 200: z.array(ticketMessageSchema) },
  }),
  replyToTicket: endpoint({
    method: 'POST',
    path: '/api/support/tickets/:id/messages',
    params: ticketParams,
    body: ticketMessageBody,
    answers: { 201: ticketMessageSchema },
  }),
};

/** The console's Support tab, behind the admin gate. */
export const supportAdminEndpoints = {
  adminTickets: endpoint({
    method: 'GET',
    path: '/api/admin/tickets',
    querystring: adminTicketsQuery,
    answers: { 200: adminTicketsPageSchema },
  }),
  adminTicketMessages: endpoint({
    method: 'GET',
    path: '/api/admin/tickets/:id/messages',
    params: ticketParams,
    answers: { 200: z.array(ticketMessageSchema) },
  }),
  assignTicket: endpoint({
    method: 'PATCH',
    path: '/api/admin/tickets/:id/assign',
    params: ticketParams,
    answers: { 200: adminTicketSchema },
  }),
  replyAsSupport: endpoint({
    method: 'POST',
    path: '/api/admin/tickets/:id/reply',
    params: ticketParams,
    body: ticketMessageBody,
    answers: { 201: ticketMessageSchema },
  }),
  setTicketStatus: endpoint({
    method: 'PATCH',
    path: '/api/admin/tickets/:id/status',
    params: ticketParams,
    body: ticketStatusBody,
    answers: { 200: adminTicketSchema },
  }),
};
