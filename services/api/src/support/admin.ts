import {
  ADMIN_TICKETS_PAGE_SIZE,
  adminTicketSchema,
  adminTicketsPageSchema,
  adminTicketsQuery,
  ticketMessageBody,
  ticketMessageSchema,
  ticketStatusBody,
} from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actingAdmin } from '../admin/routes';
import { json, operation } from '../http/route-schema';
import type { SupportService } from './support-service';

const ticketParams = z.object({ id: z.string() });
const GONE =
  'A ticket whose owner was erased is gone with its texts: not found, like one that does not exist.';

/**
 * The console's Support tab: the tickets with their counts, a
 * ticket's conversation, taking a ticket, replying as the Support Team, resolving and closing. Paths are
 * relative to `/api/admin`, behind its gate.
 */
export async function supportAdminRoutes(
  admin: FastifyInstance,
  { support }: { support: SupportService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/tickets',
    {
      schema: operation({
        tag: 'Admin',
        summary: 'Support tickets, filtered and paged',
        description: `Urgent first, then newest; ${ADMIN_TICKETS_PAGE_SIZE} a page. \`status\` and \`priority\` filter; \`counts\` are every ticket's, by status, whatever the filters.`,
        session: 'admin',
        querystring: adminTicketsQuery,
        answers: { 200: json('A page of tickets, how many match, and the counts', adminTicketsPageSchema) },
      }),
    },
    (request) => support.page(request.query),
  );

  api.get(
    '/tickets/:id/messages',
    {
      schema: operation({
        tag: 'Admin',
        summary: "A ticket's conversation, oldest first",
        description: GONE,
        session: 'admin',
        params: ticketParams,
        answers: { 200: json('The messages', z.array(ticketMessageSchema)) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    (request) => support.messagesForStaff(request.params.id),
  );

  api.patch(
    '/tickets/:id/assign',
    {
      schema: operation({
        tag: 'Admin',
        summary: 'Assign a ticket to yourself',
        description: `No body needed: the ticket goes to the calling admin, and an open one is in progress from now on. A closed ticket refuses it (409). ${GONE}`,
        session: 'admin',
        params: ticketParams,
        answers: { 200: json('The ticket as it stands now', adminTicketSchema) },
        errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
      }),
    },
    (request) => support.assign(request.params.id, actingAdmin(request)),
  );

  api.post(
    '/tickets/:id/reply',
    {
      schema: operation({
        tag: 'Admin',
        summary: 'Reply as the Support Team',
        description: `Not blank, at most 10,000 characters. An open ticket is in progress from now on; a closed one refuses it (409). The owner is mailed the reply (plain text). ${GONE}`,
        session: 'admin',
        params: ticketParams,
        body: ticketMessageBody,
        answers: { 201: json('The message as posted', ticketMessageSchema) },
        errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
      }),
    },
    async (request, reply) => {
      const posted = await support.replyAsStaff(
        request.params.id,
        actingAdmin(request),
        request.body.message,
      );
      reply.code(201);
      return posted;
    },
  );

  api.patch(
    '/tickets/:id/status',
    {
      schema: operation({
        tag: 'Admin',
        summary: 'Resolve or close a ticket',
        description: `A resolved ticket closes by itself 7 days later unless its owner replies (which reopens it). A closed ticket cannot be resolved again (409). ${GONE}`,
        session: 'admin',
        params: ticketParams,
        body: ticketStatusBody,
        answers: { 200: json('The ticket as it stands now', adminTicketSchema) },
        errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
      }),
    },
    (request) => support.setStatusAsStaff(request.params.id, request.body.status),
  );
}
