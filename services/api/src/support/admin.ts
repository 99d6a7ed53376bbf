import { ADMIN_TICKETS_PAGE_SIZE, supportAdminEndpoints } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN, actingAdmin } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { SupportService } from './support-service';

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
  const route = featureRoutes(supportAdminEndpoints, ADMIN);

  api.route({
    ...route('adminTickets', {
      summary: 'Support tickets, filtered and paged',
      description: `Urgent first, then newest; ${ADMIN_TICKETS_PAGE_SIZE} a page. \`status\` and \`priority\` filter; \`counts\` are every ticket's, by status, whatever the filters.`,
      answers: { 200: 'A page of tickets, how many match, and the counts' },
    }),
    handler: (request) => support.page(request.query),
  });

  api.route({
    ...route('adminTicketMessages', {
      summary: "A ticket's conversation, oldest first",
      description: GONE,
      answers: { 200: 'The messages' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => support.messagesForStaff(request.params.id),
  });

  api.route({
    ...route('assignTicket', {
      summary: 'Assign a ticket to yourself',
      description: `No body needed: the ticket goes to the calling admin, and an open one is in progress from now on. A closed ticket refuses it (409). ${GONE}`,
      answers: { 200: 'The ticket as it stands now' },
      errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
    }),
    handler: (request) => support.assign(request.params.id, actingAdmin(request)),
  });

  api.route({
    ...route('replyAsSupport', {
      summary: 'Reply as the Support Team',
      description: `Not blank, at most 10,000 characters. An open ticket is in progress from now on; a closed one refuses it (409). The owner is mailed the reply (plain text). ${GONE}`,
      answers: { 201: 'The message as posted' },
      errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
    }),
    handler: async (request, reply) => {
      const posted = await support.replyAsStaff(
        request.params.id,
        actingAdmin(request),
        request.body.message,
      );
      reply.code(201);
      return posted;
    },
  });

  api.route({
    ...route('setTicketStatus', {
      summary: 'Resolve or close a ticket',
      description: `A resolved ticket closes by itself 7 days later unless its owner replies (which reopens it). A closed ticket cannot be resolved again (409). ${GONE}`,
      answers: { 200: 'The ticket as it stands now' },
      errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
    }),
    handler: (request) => support.setStatusAsStaff(request.params.id, request.body.status),
  });
}
