import {
  closeTicketBody,
  openTicketBody,
  ticketMessageBody,
  ticketMessageSchema,
  ticketSchema,
} from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession, sessionRequired } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { json, operation } from '../http/route-schema';
import type { SupportService } from './support-service';

export interface SupportRoutesDeps {
  support: SupportService;
  sessions: SessionStore;
}

const ticketParams = z.object({ id: z.string() });
const OWN_ONLY = "Another user's ticket, like one that does not exist, is not found.";

/**
 * The Support Center: the signed-in user's tickets, opening one, its
 * conversation, replying, and closing it.
 */
export async function supportRoutes(app: FastifyInstance, { support, sessions }: SupportRoutesDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = sessionRequired(sessions);
  app.addHook('onClose', () => support.drainMail());

  api.get(
    '/api/support/tickets',
    {
      preValidation: signedIn,
      schema: operation({
        tag: 'Support',
        summary: "The signed-in user's support tickets, newest first",
        session: 'required',
        answers: { 200: json('The tickets', z.array(ticketSchema)) },
      }),
    },
    async (request) => support.ticketsOf((await requireSession(request, sessions)).userId),
  );

  api.post(
    '/api/support/tickets',
    {
      preValidation: signedIn,
      schema: operation({
        tag: 'Support',
        summary: 'Open a support ticket',
        description:
          'Subject (at most 200 characters) and message (at most 10,000) are required and not blank; `priority` is low, medium, high or urgent (default medium). The admins hear of urgent tickets by mail, at most one digest every 10 minutes (references only).',
        session: 'required',
        body: openTicketBody,
        rateLimit: { requests: 5, minutes: 10 },
        answers: { 201: json('The ticket, open', ticketSchema) },
      }),
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, sessions);
      reply.code(201);
      return support.open(userId, request.body);
    },
  );

  api.patch(
    '/api/support/tickets/:id',
    {
      preValidation: signedIn,
      schema: operation({
        tag: 'Support',
        summary: 'Close one of your tickets',
        description: `Nothing more can be posted to it afterwards; closing it again changes nothing. ${OWN_ONLY}`,
        session: 'required',
        params: ticketParams,
        body: closeTicketBody,
        answers: { 200: json('The ticket, closed', ticketSchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const { userId } = await requireSession(request, sessions);
      return support.closeByOwner(userId, request.params.id);
    },
  );

  api.get(
    '/api/support/tickets/:id/messages',
    {
      preValidation: signedIn,
      schema: operation({
        tag: 'Support',
        summary: "A ticket's conversation, oldest first",
        description: `Messages from staff have \`isFromAdmin\` true ("Support Team"). ${OWN_ONLY}`,
        session: 'required',
        params: ticketParams,
        answers: { 200: json('The messages', z.array(ticketMessageSchema)) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const { userId } = await requireSession(request, sessions);
      return support.messagesOf(userId, request.params.id);
    },
  );

  api.post(
    '/api/support/tickets/:id/messages',
    {
      preValidation: signedIn,
      schema: operation({
        tag: 'Support',
        summary: 'Reply on one of your tickets',
        description: `Not blank, at most 10,000 characters. A closed ticket refuses it (409 TICKET_CLOSED); a resolved one is reopened. ${OWN_ONLY}`,
        session: 'required',
        params: ticketParams,
        body: ticketMessageBody,
        rateLimit: { requests: 20, minutes: 10 },
        answers: { 201: json('The message as posted', ticketMessageSchema) },
        errors: { 404: ['NOT_FOUND'], 409: ['TICKET_CLOSED'] },
      }),
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, sessions);
      const posted = await support.postByOwner(userId, request.params.id, request.body.message);
      reply.code(201);
      return posted;
    },
  );
}
