import { z } from 'zod';

/**
 * The admin console's Events tab: the event log read one entity at a time. Streams are listed from the
 * stream catalogue; a stream's events come from the event store itself, with their metadata. Personal
 * data (ciphertext under a user's key) shows as `[encrypted]` until an admin reveals one event's, which
 * is itself recorded and listed in the audit history; once the user is erased it shows as `[erased]`.
 */

export const STREAMS_PAGE_SIZE = 25;
export const STREAM_EVENTS_DEFAULT_LIMIT = 50;
export const STREAM_EVENTS_MAX_LIMIT = 200;
/** What a correlated request's events are listed up to: a request appends a handful, a job a few hundred. */
export const CORRELATED_EVENTS_MAX = 500;

/** What stands in for a value that is ciphertext under a user's key, until an admin reveals it. */
export const ENCRYPTED_PLACEHOLDER = '[encrypted]';
/** What a revealed value shows when the user's key is gone (the account was erased). */
export const ERASED_PLACEHOLDER = '[erased]';

const WHOLE_NUMBER = /^(0|[1-9][0-9]{0,14})$/;
const wholeNumber = (what: string) => z.string().regex(WHOLE_NUMBER, `must be ${what}`);
const STREAM_TEXT = /^[\x21-\x7e]{1,200}$/;

/** `GET /api/admin/streams`: the streams, the most recently changed first. */
export const streamsQuery = z.object({
  prefix: z
    .string()
    .regex(STREAM_TEXT, 'must be the start of a stream id, without spaces')
    .optional()
    .describe('Only streams whose id starts with this (`link-`, `user-0193…`)'),
  type: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,99}$/, 'must be an event type (letters and digits)')
    .optional()
    .describe('Only streams whose last event is of this type (`LinkCreated`)'),
  page: wholeNumber('a whole number from 1')
    .refine((value) => Number(value) >= 1, 'must be a whole number from 1')
    .optional()
    .describe(`From 1 (the most recently changed); ${STREAMS_PAGE_SIZE} a page`),
});

export const streamSummarySchema = z.object({
  streamId: z.string(),
  /** The part before the first `-`: `link`, `user`, `ticket`… */
  category: z.string(),
  /** The revision of its last event (0-based). */
  revision: z.number().int(),
  eventCount: z.number().int(),
  lastEventType: z.string(),
  /** ISO instant of its last event. */
  lastEventAt: z.string(),
});
export type StreamSummary = z.infer<typeof streamSummarySchema>;

export const streamsPageSchema = z.object({
  streams: z.array(streamSummarySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type StreamsPage = z.infer<typeof streamsPageSchema>;

/** `GET /api/admin/streams/find?q=`: what an admin types to find an entity. */
export const findStreamsQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(320, 'must be at most 320 characters')
    .describe('A user’s e-mail address, a link’s code, a premium slug, a ticket id or any stream id'),
});

export const streamMatchSchema = z.object({
  streamId: z.string(),
  /** What the search matched it by, in words: `User`, `Link`, `Short code`, `Premium slug`, `Ticket`, `Stream`. */
  kind: z.string(),
  /** What an admin recognises it by: the e-mail address, the code, the slug, the ticket's id. */
  label: z.string(),
});
export type StreamMatch = z.infer<typeof streamMatchSchema>;
export const streamMatchesSchema = z.object({ matches: z.array(streamMatchSchema) });

/** `GET /api/admin/streams/{streamId}/events?from=&limit=`: a page of one stream's events, oldest first. */
export const streamEventsQuery = z.object({
  from: wholeNumber('a revision (a whole number from 0)')
    .optional()
    .describe('The first revision listed; default 0'),
  limit: wholeNumber(`a whole number from 1 to ${STREAM_EVENTS_MAX_LIMIT}`)
    .refine(
      (value) => Number(value) >= 1 && Number(value) <= STREAM_EVENTS_MAX_LIMIT,
      `must be a whole number from 1 to ${STREAM_EVENTS_MAX_LIMIT}`,
    )
    .optional()
    .describe(`Events a page, at most ${STREAM_EVENTS_MAX_LIMIT}; default ${STREAM_EVENTS_DEFAULT_LIMIT}`),
});

/** Who made an event happen, as the console names them. */
export const eventActorSchema = z.object({
  /** A user id, `visitor-{id}`, `operator` or `system`. */
  id: z.string(),
  kind: z.enum(['user', 'visitor', 'operator', 'system']),
  /** The user's e-mail address now; null for others and once the account is erased. */
  email: z.string().nullable(),
});
export type EventActor = z.infer<typeof eventActorSchema>;

export const consoleEventSchema = z.object({
  id: z.string(),
  streamId: z.string(),
  type: z.string(),
  /** The version of its shape it was stored at (its data is shown upcast to the current one). */
  version: z.number().int(),
  revision: z.number().int(),
  /** Its place in the whole log (opaque, ordered). */
  position: z.string(),
  occurredAt: z.string(),
  actor: eventActorSchema,
  /** The way in of a privileged command: `admin-console`, `operator`, `api`; null for a user's own. */
  channel: z.string().nullable(),
  correlationId: z.string().nullable(),
  causationId: z.string().nullable(),
  /** The event's data; each personal value is `[encrypted]` unless revealed. */
  data: z.unknown(),
  /** Where personal values sit in `data` (`email`, `items.0.name`): what a reveal would show. */
  personalFields: z.array(z.string()),
  /** Whether `data` shows the personal values (or `[erased]` where they can no longer be read). */
  revealed: z.boolean(),
});
export type ConsoleEvent = z.infer<typeof consoleEventSchema>;

export const streamEventsSchema = z.object({
  streamId: z.string(),
  events: z.array(consoleEventSchema),
  /** The `from` of the next page; null on the last. */
  next: z.number().int().nullable(),
  /** Whether the console knows this stream's decider, so can show its state after each event. */
  foldable: z.boolean(),
});
export type StreamEvents = z.infer<typeof streamEventsSchema>;

/** `GET /api/admin/streams/{streamId}/state?revision=`: the entity right after one of its events. */
export const stateQuery = z.object({
  revision: wholeNumber('a revision (a whole number from 0)').describe('The event the state is right after'),
});

export const stateAfterSchema = z.object({
  streamId: z.string(),
  revision: z.number().int(),
  /** The type of the event at that revision. */
  eventType: z.string(),
  /** The decider's state folded from the first event up to this one; personal values `[encrypted]`. */
  state: z.unknown(),
});
export type StateAfter = z.infer<typeof stateAfterSchema>;

/** `GET /api/admin/correlations/{correlationId}`: the events of one request or job, across streams. */
export const correlatedEventsSchema = z.object({
  correlationId: z.string(),
  /** In log order. */
  events: z.array(consoleEventSchema),
});
export type CorrelatedEvents = z.infer<typeof correlatedEventsSchema>;
