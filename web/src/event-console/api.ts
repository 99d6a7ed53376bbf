import type { ConsoleEvent } from '@sniplink/contracts/event-console/api';
import { eventConsoleEndpoints } from '@sniplink/contracts/event-console/endpoints';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { call } from '../api/client';
import { ApiError } from '../api/http';

const { findStreams, streamEvents, stateAfter, revealEvent, correlatedEvents } = eventConsoleEndpoints;

/** An answer, or null when the server says the address names nothing (404): the tab says so in place. */
async function orNothing<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The streams of what an admin typed: a user's e-mail, a code, a slug, a ticket id. Admin queries never retry. */
export const streamMatchesQueryOptions = (q: string) =>
  queryOptions({
    queryKey: [findStreams.path, { q }],
    queryFn: ({ signal }) => call(findStreams, { query: { q } }, { signal }),
    retry: false,
  });

/** A page of a stream's events, oldest first from revision `from`; null for a stream with none. */
export const streamEventsQueryOptions = (streamId: string, from: number) =>
  queryOptions({
    queryKey: [streamEvents.path, { streamId, from }],
    queryFn: ({ signal }) =>
      orNothing(call(streamEvents, { params: { streamId }, query: { from: String(from) } }, { signal })),
    retry: false,
  });

/** The entity right after the event at `revision`; null when no decider folds the stream. */
export const stateAfterQueryOptions = (streamId: string, revision: number) =>
  queryOptions({
    queryKey: [stateAfter.path, { streamId, revision }],
    queryFn: ({ signal }) =>
      orNothing(
        call(stateAfter, { params: { streamId }, query: { revision: String(revision) } }, { signal }),
      ),
    retry: false,
  });

/** The events of one request or job, across streams; null when none carries the id. */
export const correlatedEventsQueryOptions = (correlationId: string) =>
  queryOptions({
    queryKey: [correlatedEvents.path, { correlationId }],
    queryFn: ({ signal }) => orNothing(call(correlatedEvents, { params: { correlationId } }, { signal })),
    retry: false,
    // Listed from a read model that follows the log a moment behind: opened again, the dialog asks anew
    // rather than keep a list that may have missed the request's last events.
    staleTime: 0,
  });

/** Reveals one event's personal data (the server records it in the audit history first). */
export const useRevealEvent = () =>
  useMutation({
    mutationFn: ({ streamId, revision }: Pick<ConsoleEvent, 'streamId' | 'revision'>) =>
      call(revealEvent, { params: { streamId, revision: String(revision) } }),
  });

/** The server's own words when it gave some, else the status line. */
export const problemOf = (error: unknown): string =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';
