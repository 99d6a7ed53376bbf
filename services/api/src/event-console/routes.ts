import { eventConsoleEndpoints } from '@sniplink/contracts/event-console/endpoints';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { EventConsoleService } from './event-console-service';

const PERSONAL =
  'Personal data (values encrypted under a user’s key) shows as `[encrypted]`; `personalFields` says where it sits.';

/**
 * The console's Events tab: the event log one entity at a time. Registered under `/api/admin`, behind its
 * gate; revealing personal data appends an event there, so the audit history lists it.
 */
export async function eventConsoleRoutes(
  admin: FastifyInstance,
  { eventLog }: { eventLog: EventConsoleService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(eventConsoleEndpoints, ADMIN);

  api.route({
    ...route('listStreams', {
      summary: 'The streams of the event log',
      description:
        'From the stream catalogue, the most recently changed first: each stream’s id, category, last revision, event count and last event. `prefix` keeps the ids that start with it; `type` those whose last event is of that type.',
      answers: { 200: 'One page of streams' },
    }),
    handler: (request) => {
      const { prefix, type, page } = request.query;
      return eventLog.streams({ prefix, type, page: Number(page ?? 1) });
    },
  });

  api.route({
    ...route('findStreams', {
      summary: 'Find the streams of an entity',
      description:
        'By a user’s e-mail address, a link’s code, a premium slug, a ticket id (or any id a stream is named after) or a whole stream id. An empty list when nothing matches.',
      answers: { 200: 'The matching streams' },
    }),
    handler: async (request) => ({ matches: await eventLog.find(request.query.q) }),
  });

  api.route({
    ...route('streamEvents', {
      summary: 'A stream’s events',
      description: `Oldest first, from revision \`from\`: each event’s type, version, revision, position, time, actor, channel, correlation and causation ids and data. ${PERSONAL}`,
      answers: { 200: 'A page of events; `next` is the next page’s `from`' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) =>
      eventLog.events(
        request.params.streamId,
        Number(request.query.from ?? 0),
        request.query.limit === undefined ? undefined : Number(request.query.limit),
      ),
  });

  api.route({
    ...route('stateAfter', {
      summary: 'The entity right after one of its events',
      description: `Its decider’s evolve folded over the stream’s events up to and including \`revision\`: the state its next command would have been decided on then. ${PERSONAL} 404 for a stream no decider writes.`,
      answers: { 200: 'The state' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => eventLog.stateAfter(request.params.streamId, request.query.revision),
  });

  api.route({
    ...route('revealEvent', {
      summary: 'Reveal one event’s personal data',
      description:
        'Records `PersonalDataRevealed` (the admin, the stream, the event and the fields, never the values), listed in the audit history, then answers the event with its personal values decrypted; `[erased]` where the user’s key is gone. 404 for an event without personal data.',
      answers: { 200: 'The event, revealed' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => eventLog.reveal(request.params.streamId, request.params.revision),
  });

  api.route({
    ...route('correlatedEvents', {
      summary: 'The events of one request or job',
      description: `Every event that shares the correlation id, across streams, in log order (at most 500). ${PERSONAL}`,
      answers: { 200: 'The events' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => eventLog.correlated(request.params.correlationId),
  });
}
