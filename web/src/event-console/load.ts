import type { QueryClient } from '@tanstack/react-query';
import type { AdminSearch } from '../admin/places';
import {
  correlatedEventsQueryOptions,
  stateAfterQueryOptions,
  streamEventsQueryOptions,
  streamMatchesQueryOptions,
} from './api';

/** What the Events tab shows at its place: the search's matches, the stream, the state, the request. */
export async function loadEventsTab(queryClient: QueryClient, place: AdminSearch): Promise<void> {
  const { q, stream, from, event, correlation } = place;
  await Promise.all([
    q?.trim() ? queryClient.ensureQueryData(streamMatchesQueryOptions(q.trim())) : null,
    stream ? queryClient.ensureQueryData(streamEventsQueryOptions(stream, from ?? 0)) : null,
    stream && event !== undefined ? queryClient.ensureQueryData(stateAfterQueryOptions(stream, event)) : null,
    correlation ? queryClient.ensureQueryData(correlatedEventsQueryOptions(correlation)) : null,
  ]);
}
