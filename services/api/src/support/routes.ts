import { supportEndpoints } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes } from '../http/route-schema';
import type { SupportService } from './support-service';

const route = featureRoutes(supportEndpoints, { tag: 'Support', session: 'required' });

export interface SupportRoutesDeps {
  support: SupportService;
  sessions: SessionStore;
}

const OWN_ONLY = "Another user's ticket, like one that does not exist, is not found.";

/**
 * The Support Center: the signed-in user's tickets, opening one, its
 * conversation, replying, and closing it.
 */
export async function supportRoutes(app: FastifyInstance, { support }: SupportRoutesDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onClose', () => support.drainMail());

  api.route({
    ...route('listTickets', {
      summary: "The signed-in user's support tickets, newest first",
      answers: { 200: 'The tickets' },
    }),
    handler: async (request) => support.ticketsOf(sessionOf(request).userId),
  });

  api.route({
    ...route('openTicket', {
      summary: 'Open a support ticket',
      description:
        'Subject (at most 200 characters) and message (at most 10,000) are required and not blank; `priority` is low, medium, high or urgent (default medium). The admins hear of urgent tickets by mail, at most one digest every 10 minutes (references only).',
      rateLimit: { requests: 5, minutes: 10 },
      answers: { 201: 'The ticket, open' },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      reply.code(201);
      return support.open(userId, request.body);
    },
  });

  api.route({
    ...route('closeTicket', {
      summary: 'Close one of your tickets',
      description: `Nothing more can be posted to it afterwards; closing it again changes nothing. ${OWN_ONLY}`,
      answers: { 200: 'The ticket, closed' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return support.closeByOwner(userId, request.params.id);
    },
  });

  api.route({
    ...route('ticketMessages', {
      summary: "A ticket's conversation, oldest first",
      description: `Messages from staff have \`isFromAdmin\` true ("Support Team"). ${OWN_ONLY}`,
      answers: { 200: 'The messages' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return support.messagesOf(userId, request.params.id);
    },
  });

  api.route({
    ...route('replyToTicket', {
      summary: 'Reply on one of your tickets',
      description: `Not blank, at most 10,000 characters. A closed ticket refuses it (409 TICKET_CLOSED); a resolved one is reopened. ${OWN_ONLY}`,
      rateLimit: { requests: 20, minutes: 10 },
      answers: { 201: 'The message as posted' },
      errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      const posted = await support.postByOwner(userId, request.params.id, request.body.message);
      reply.code(201);
      return posted;
    },
  });
}
