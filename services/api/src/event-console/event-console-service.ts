import { userStream } from '@sniplink/contracts/accounts/events';
import {
  CORRELATED_EVENTS_MAX,
  type ConsoleEvent,
  type CorrelatedEvents,
  type EventActor,
  STREAM_EVENTS_DEFAULT_LIMIT,
  STREAMS_PAGE_SIZE,
  type StateAfter,
  type StreamEvents,
  type StreamMatch,
  type StreamsPage,
} from '@sniplink/contracts/event-console/api';
import { disclosureStream } from '@sniplink/contracts/event-console/events';
import { linkStream } from '@sniplink/contracts/links/events';
import { premiumSlugStream } from '@sniplink/contracts/marketplace/events';
import {
  decidedStreams,
  disclosureDecider,
  NotFoundError,
  normaliseEmail,
  stateAfter,
  streamKindOf,
} from '@sniplink/domain';
import {
  channelOf,
  commandHandler,
  encodePosition,
  type Keyring,
  type RecordedEvent,
} from '@sniplink/platform';
import {
  catalogueStreams,
  correlatedEventPlaces,
  emailsOf,
  knownStreams,
  linkIdsByCode,
  premiumSlugIdBySlug,
  userIdByEmail,
} from '@sniplink/projections/event-console/queries';
import { categoryOf } from '@sniplink/projections/stream-catalogue/projection';
import type { ServiceDeps } from '../shared/service-deps';
import { ownersOf, withPersonalDataHidden, withPersonalDataShown } from './personal-data';

const noSuchStream = () => new NotFoundError('No such stream');
const noSuchEvent = () => new NotFoundError('No such event in this stream');
/** A stream id as the store names them: printable, no spaces. Anything else names no stream (404). */
const STREAM_ID = /^[\x21-\x7e]{1,300}$/;
const REVISION = /^(0|[1-9][0-9]{0,14})$/;

/**
 * The admin's window on the event log, one entity at a time: streams from the catalogue, events from the
 * store with their metadata, the entity's state after any event (its decider's fold), and a request's
 * events across streams. Personal data stays hidden unless an admin reveals one event's, which appends
 * `PersonalDataRevealed` (the console's gate makes it an audited action); an erased user's stays
 * unreadable, as the key is gone.
 */
export class EventConsoleService {
  private readonly disclosures;

  constructor(private readonly deps: ServiceDeps & { keyring: Keyring }) {
    this.disclosures = commandHandler(deps, { decider: disclosureDecider, stream: disclosureStream });
  }

  async streams(filter: { prefix?: string; type?: string; page: number }): Promise<StreamsPage> {
    const { streams, hasMore } = await catalogueStreams(this.deps.db, {
      prefix: filter.prefix,
      lastEventType: filter.type,
      page: filter.page,
      pageSize: STREAMS_PAGE_SIZE,
    });
    return {
      streams: streams.map((row) => ({ ...row, lastEventAt: row.lastEventAt.toISOString() })),
      page: filter.page,
      pageSize: STREAMS_PAGE_SIZE,
      hasMore,
    };
  }

  /** The streams an admin means by what they typed: an e-mail address, a code, a slug, an id. */
  async find(q: string): Promise<StreamMatch[]> {
    const { db } = this.deps;
    const matches: StreamMatch[] = [];
    const add = (streamId: string, kind: string, label: string) => {
      if (!matches.some((match) => match.streamId === streamId)) matches.push({ streamId, kind, label });
    };
    if (q.includes('@')) {
      const email = normaliseEmail(q);
      const userId = await userIdByEmail(db, email);
      if (userId) add(userStream.id(userId), 'User', email);
    }
    for (const { linkId, code } of await linkIdsByCode(db, q)) add(linkStream.id(linkId), 'Link', code);
    const slug = await premiumSlugIdBySlug(db, q);
    if (slug) add(premiumSlugStream.id(slug.slugId), 'Premium slug', slug.slug);
    // Every stream an id can name (`ticket-{id}`, `shortcode-{code}`, …), and the stream of that very id:
    // lookups by the catalogue's key, never a scan of it.
    const named = decidedStreams.flatMap((stream) => [stream.id(q), stream.id(q.toLowerCase())]);
    for (const streamId of await knownStreams(db, [...new Set([q, ...named])])) {
      add(streamId, streamId === q ? 'Stream' : kindOfStream(streamId), streamId === q ? q : q.toLowerCase());
    }
    return matches;
  }

  async events(streamId: string, from: number, limit = STREAM_EVENTS_DEFAULT_LIMIT): Promise<StreamEvents> {
    if (!STREAM_ID.test(streamId)) throw noSuchStream();
    const recorded = await this.deps.eventStore.readStream(streamId, {
      fromRevision: BigInt(from),
      maxCount: limit + 1,
    });
    if (recorded.length === 0 && (from === 0 || (await this.isEmpty(streamId)))) throw noSuchStream();
    const page = recorded.slice(0, limit);
    return {
      streamId,
      events: await this.shown(page),
      next: recorded.length > limit ? from + limit : null,
      foldable: streamKindOf(streamId) !== undefined,
    };
  }

  async stateAfter(streamId: string, revisionText: string): Promise<StateAfter> {
    if (!STREAM_ID.test(streamId)) throw noSuchStream();
    const fold = streamKindOf(streamId)?.fold;
    if (!fold) throw new NotFoundError('No decider folds this stream');
    const revision = BigInt(revisionText);
    const recorded = await this.deps.eventStore.readStream(streamId, { maxCount: Number(revision) + 1 });
    const last = recorded.at(-1);
    if (!last || last.revision !== revision) throw noSuchEvent();
    const known = recorded.filter((event) => fold.events.includes(event));
    const { shown } = await withPersonalDataHidden(stateAfter(fold, known));
    return { streamId, revision: Number(revision), eventType: last.type, state: shown };
  }

  /** One event with its personal data readable, once the reading is on record (the audit history's). */
  async reveal(streamId: string, revisionText: string): Promise<ConsoleEvent> {
    if (!STREAM_ID.test(streamId) || !REVISION.test(revisionText)) throw noSuchEvent();
    const revision = BigInt(revisionText);
    const [event] = await this.deps.eventStore.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (!event || event.revision !== revision) throw noSuchEvent();
    const { fields } = await withPersonalDataHidden(event.data);
    const [listed] = await this.shown([event]);
    if (!listed || fields.length === 0) throw new NotFoundError('This event holds no personal data');
    await this.disclosures.handle(streamId, {
      type: 'RevealPersonalData',
      streamId,
      eventId: event.id,
      revision: Number(revision),
      eventType: event.type,
      fields,
    });
    const [first] = await this.deps.eventStore.readStream(streamId, { maxCount: 1 });
    const kind = streamKindOf(streamId);
    const owners = ownersOf(kind ? kind.stream.idOf(streamId) : null, first ? [first, event] : [event]);
    const { shown } = await withPersonalDataShown(event.data, owners, this.deps.keyring);
    return { ...listed, data: shown, revealed: true };
  }

  async correlated(correlationId: string): Promise<CorrelatedEvents> {
    const places = await correlatedEventPlaces(this.deps.db, correlationId, CORRELATED_EVENTS_MAX);
    const events: RecordedEvent[] = [];
    for (const { streamId, revision } of places) {
      const [event] = await this.deps.eventStore.readStream(streamId, {
        fromRevision: revision,
        maxCount: 1,
      });
      if (event) events.push(event);
    }
    if (events.length === 0) throw new NotFoundError('No events carry this correlation id');
    return { correlationId, events: await this.shown(events) };
  }

  private async isEmpty(streamId: string): Promise<boolean> {
    return (await this.deps.eventStore.readStream(streamId, { maxCount: 1 })).length === 0;
  }

  /** Events as the console lists them: metadata, actors by e-mail, personal values hidden. */
  private async shown(events: readonly RecordedEvent[]): Promise<ConsoleEvent[]> {
    const emails = await emailsOf(
      this.deps.db,
      events.flatMap((event) => (event.actorId ? [event.actorId] : [])),
    );
    return Promise.all(
      events.map(async (event) => {
        const { shown, fields } = await withPersonalDataHidden(event.data);
        return {
          id: event.id,
          streamId: event.streamId,
          type: event.type,
          version: event.schemaVersion,
          revision: Number(event.revision),
          position: encodePosition(event.globalPosition),
          occurredAt: event.occurredAt.toISOString(),
          actor: actorOf(event.actorId, emails),
          channel: channelOf(event),
          correlationId: event.correlationId,
          causationId: event.causationId,
          data: shown,
          personalFields: fields,
          revealed: false,
        };
      }),
    );
  }
}

function actorOf(actorId: string | null, emails: Map<string, string>): EventActor {
  const id = actorId ?? 'system';
  if (id === 'system' || id === 'operator') return { id, kind: id, email: null };
  if (id.startsWith('visitor-')) return { id, kind: 'visitor', email: null };
  return { id, kind: 'user', email: emails.get(id.toLowerCase()) ?? null };
}

const KINDS: Record<string, string> = {
  user: 'User',
  link: 'Link',
  shortcode: 'Short code',
  premiumslug: 'Premium slug',
  ticket: 'Ticket',
  apikeys: 'API keys',
  billing: 'Billing',
};
const kindOfStream = (streamId: string) => KINDS[categoryOf(streamId)] ?? 'Stream';
