import { MAX_WEBHOOKS, WEBHOOK_LOG_SIZE, webhookEndpoints } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import { featureRoutes } from '../http/route-schema';
import type { WebhookService } from './webhook-service';

/** Managed with a session only: a key never makes, lists or ends webhooks. */
const route = featureRoutes(webhookEndpoints, { tag: 'Webhooks', session: 'required' });
const SECRET_SHOWN_ONCE = 'The signing secret (`whsec_…`) is in this answer only: it is never shown again.';
const NOT_YOURS = "Another user's webhook is not found.";

/** The signed-in user's webhooks (Profile, "Webhooks"). */
export async function webhookRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhookService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...route('listWebhooks', {
      summary: "The signed-in user's webhooks, newest first",
      description: 'A webhook whose deliveries failed for 24 hours is `disabled`, with `disabledAt`.',
      answers: { 200: 'The webhooks' },
    }),
    handler: async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await webhooks.list(sessionOf(request).userId)),
  });

  api.route({
    ...route('createWebhook', {
      summary: 'Create a webhook',
      description: `An endpoint \`url\` and at least one of the events \`link.created\`, \`link.updated\`, \`link.deleted\`, \`link.clicked\`, \`ticket.replied\`. The URL must be https to a host whose every address is public (its name is resolved when it is checked); private, loopback and reserved addresses, and http, are refused (400) unless the admin setting \`webhooks.allow_private\` is 1. ${SECRET_SHOWN_ONCE} At most ${MAX_WEBHOOKS} webhooks an account (409 past it).`,
      rateLimit: { requests: 10, minutes: 1 },
      answers: { 201: 'The webhook, with its signing secret' },
      errors: { 409: ['CONFLICT'] },
    }),
    handler: async (request, reply) => {
      const created = await webhooks.create(sessionOf(request).userId, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  });

  api.route({
    ...route('deleteWebhook', {
      summary: 'Delete a webhook',
      description: `Nothing more is sent to it; its delivery log goes with it. ${NOT_YOURS}`,
      answers: { 200: 'Deleted' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      await webhooks.delete(sessionOf(request).userId, request.params.id);
      return { ok: true as const, id: request.params.id };
    },
  });

  api.route({
    ...route('rotateWebhookSecret', {
      summary: "Replace a webhook's signing secret",
      description: `Deliveries from now on are signed with the new one. ${SECRET_SHOWN_ONCE} ${NOT_YOURS}`,
      rateLimit: { requests: 10, minutes: 1 },
      answers: { 200: 'The webhook, with its new signing secret' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await webhooks.rotateSecret(sessionOf(request).userId, request.params.id)),
  });

  api.route({
    ...route('sendWebhookTest', {
      summary: 'Send a test event',
      description: `Queues a \`webhook.test\` event for this endpoint, whatever it subscribes to; its delivery shows in the log within seconds. ${NOT_YOURS}`,
      rateLimit: { requests: 10, minutes: 1 },
      answers: { 202: 'Queued' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) => {
      const eventId = await webhooks.sendTest(sessionOf(request).userId, request.params.id);
      return reply.code(202).send({ ok: true as const, eventId });
    },
  });

  api.route({
    ...route('webhookDeliveries', {
      summary: "A webhook's delivery log",
      description: `Its last ${WEBHOOK_LOG_SIZE} attempts, newest first: time, event, the receiver's status code (null when none answered, with the reason) and duration. ${NOT_YOURS}`,
      answers: { 200: 'The attempts' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await webhooks.attempts(sessionOf(request).userId, request.params.id)),
  });
}
