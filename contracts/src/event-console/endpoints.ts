import { endpoint } from '../endpoint';
import {
  consoleEventSchema,
  correlatedEventsSchema,
  findStreamsQuery,
  stateAfterSchema,
  stateQuery,
  streamEventsQuery,
  streamEventsSchema,
  streamMatchesSchema,
  streamsPageSchema,
  streamsQuery,
} from './api';

/** The console's Events tab, behind the admin gate. */
export const eventConsoleEndpoints = {
  listStreams: endpoint('GET /api/admin/streams', { 200: streamsPageSchema }, { querystring: streamsQuery }),
  findStreams: endpoint(
    'GET /api/admin/streams/find',
    { 200: streamMatchesSchema },
    { querystring: findStreamsQuery },
  ),
  streamEvents: endpoint(
    'GET /api/admin/streams/:streamId/events',
    { 200: streamEventsSchema },
    { querystring: streamEventsQuery },
  ),
  stateAfter: endpoint(
    'GET /api/admin/streams/:streamId/state',
    { 200: stateAfterSchema },
    { querystring: stateQuery },
  ),
  revealEvent: endpoint('POST /api/admin/streams/:streamId/events/:revision/reveal', {
    200: consoleEventSchema,
  }),
  correlatedEvents: endpoint('GET /api/admin/correlations/:correlationId', {
    200: correlatedEventsSchema,
  }),
};
