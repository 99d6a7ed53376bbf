import { type LinkEvent, linkEvents, linkStream, userEvents, userStream } from '@sniplink/contracts';
import type { ReadModel, RecordedEvent } from '@sniplink/platform';
import { sql, type Transaction, type UpdateObject } from 'kysely';
import type { Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';
import type { LinkRow } from './tables';

/**
 * Told which codes changed (lower-cased) once they are committed: redirect caches evict them. A link
 * whose event carries no code is named `link:{id}`, an owner whose every code changed `owner:{id}`.
 */
export type CodesChanged = (codes: string[]) => Promise<void>;

/** The user stream's events that change where an owner's links lead: suspension stops them all. */
const OWNER_EVENT_TYPES = ['UserSuspended', 'UserUnsuspended'] as const;
const isOwnerEvent = (recorded: RecordedEvent) =>
  (OWNER_EVENT_TYPES as readonly string[]).includes(recorded.type);

/**
 * The links read model: one row per link, for the dashboard's queries and the redirect's cache misses,
 * and one per suspended (or once suspended) owner. Idempotent: an event applies only past the row's
 * `last_revision`.
 */
/** The links read model as its readers name it (the projection is built with its cache eviction). */
export const linksReadModel: ReadModel = { name: 'links' };

export function linksProjection(onCodesChanged: CodesChanged = async () => {}): Projection {
  return {
    name: linksReadModel.name,
    version: 1,
    handles: [...linkEvents.types, ...OWNER_EVENT_TYPES],
    tables: ['rm_links', 'rm_link_owners'],
    async apply(trx, events) {
      for (const event of events) if (isOwnerEvent(event)) await applyOwnerEvent(trx, event);
      await applyLinkEvents(
        trx,
        events.filter((event) => !isOwnerEvent(event)),
      );
    },
    async afterCommit(events) {
      const codes = new Set<string>();
      for (const event of events) for (const code of codesTouched(event)) codes.add(code);
      if (codes.size > 0) await onCodesChanged([...codes]);
    },
  };
}

/** Marks the owner suspended or not; their links' rows stay as they are, so each keeps its code claimed. */
async function applyOwnerEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent): Promise<void> {
  const ownerId = userStream.idOf(recorded);
  const revision = recorded.revision.toString();
  const suspended = userEvents.narrow(recorded).type === 'UserSuspended';
  await trx
    .insertInto('rm_link_owners')
    .values({ owner_id: ownerId, suspended, last_revision: revision })
    .onConflict((oc) =>
      oc
        .column('owner_id')
        .doUpdateSet({ suspended, last_revision: revision })
        .where('rm_link_owners.last_revision', '<', revision),
    )
    .execute();
}

/**
 * A batch's link events, set-based: the rows they touch are read in one statement, the events folded
 * into them in order (each only past its row's `last_revision`), and the rows written back in one
 * upsert per few thousand. A rebuild of a million events then costs a few statements per batch, not one
 * per event.
 */
async function applyLinkEvents(
  trx: Transaction<ReadModelDatabase>,
  recordedEvents: readonly RecordedEvent[],
): Promise<void> {
  if (recordedEvents.length === 0) return;
  const ids = [...new Set(recordedEvents.map((recorded) => linkStream.idOf(recorded)))];
  const stored = await trx
    .selectFrom('rm_links')
    .selectAll()
    .where('link_id', '=', sql<string>`ANY(${ids}::uuid[])`)
    .execute();
  const rows = new Map<string, LinkRowToWrite>(stored.map((row) => [row.link_id, toWritable(row)]));
  const touched = new Set<string>();
  for (const recorded of recordedEvents) {
    const linkId = linkStream.idOf(recorded);
    const revision = recorded.revision;
    const event = linkEvents.narrow(recorded);
    const at = recorded.occurredAt;
    const row = rows.get(linkId);
    if (event.type === 'LinkCreated') {
      if (row) continue;
      const { ownerId, code, originalUrl, title, origin } = event.data;
      rows.set(linkId, {
        ...NEW_LINK_DEFAULTS,
        link_id: linkId,
        owner_id: ownerId,
        code,
        code_lower: code.toLowerCase(),
        original_url: originalUrl,
        title,
        origin,
        pending_approval: event.data.review !== undefined,
        created_at: at,
        updated_at: at,
        last_revision: revision.toString(),
      });
      touched.add(linkId);
      continue;
    }
    if (!row || BigInt(row.last_revision) >= revision) continue;
    Object.assign(row, changesFor(event), { updated_at: at, last_revision: revision.toString() });
    touched.add(linkId);
  }
  const written = [...touched].map((linkId) => rows.get(linkId) as LinkRowToWrite);
  for (let from = 0; from < written.length; from += UPSERT_ROWS) {
    await trx
      .insertInto('rm_links')
      .values(written.slice(from, from + UPSERT_ROWS))
      .onConflict((oc) =>
        oc
          .column('link_id')
          .doUpdateSet((eb) =>
            Object.fromEntries(UPDATED_COLUMNS.map((column) => [column, eb.ref(`excluded.${column}`)])),
          ),
      )
      .execute();
  }
}

/** A row as it is written back: its rules as JSON text, which the jsonb column takes. */
type LinkRowToWrite = Omit<LinkRow, 'rules'> & { rules: string };

const toWritable = (row: LinkRow): LinkRowToWrite => ({ ...row, rules: JSON.stringify(row.rules) });

/** The columns a new link starts with that its `LinkCreated` does not set (the table's defaults). */
const NEW_LINK_DEFAULTS = {
  deleted: false,
  password_id: null,
  expires_at: null,
  max_clicks: null,
  fallback_url: null,
  paused: false,
  tags: [],
  rules: '[]',
} satisfies Partial<LinkRowToWrite>;

/** Every column but the key: an upsert of a row read, folded and written back sets them all. */
const UPDATED_COLUMNS = [
  'owner_id',
  'code',
  'code_lower',
  'original_url',
  'title',
  'origin',
  'created_at',
  'updated_at',
  'deleted',
  'pending_approval',
  'last_revision',
  'password_id',
  'expires_at',
  'max_clicks',
  'fallback_url',
  'paused',
  'tags',
  'rules',
] as const satisfies readonly (keyof LinkRowToWrite)[];

/** 19 parameters a row: well under PostgreSQL's 65,535 a statement. */
const UPSERT_ROWS = 2_000;

function changesFor(
  event: Exclude<LinkEvent, { type: 'LinkCreated' }>,
): UpdateObject<ReadModelDatabase, 'rm_links', 'rm_links'> {
  switch (event.type) {
    case 'LinkRetitled':
      return { title: event.data.title };
    case 'LinkRetargeted':
      return { original_url: event.data.originalUrl };
    case 'LinkCodeChanged':
      return {
        code: event.data.code,
        code_lower: event.data.code.toLowerCase(),
        pending_approval: event.data.review !== undefined,
      };
    case 'LinkCodeApproved':
      return { pending_approval: false };
    case 'LinkCodeRejected':
      // The change to the generated code that follows in the same append moves the link.
      return {};
    case 'LinkOwnerChanged':
      return { owner_id: event.data.ownerId };
    case 'LinkDeleted':
      return { deleted: true };
    case 'LinkPasswordSet':
      return { password_id: event.data.passwordId };
    case 'LinkPasswordRemoved':
      return { password_id: null };
    case 'LinkExpiryChanged':
      return { expires_at: event.data.expiresAt };
    case 'LinkClickLimitChanged':
      return { max_clicks: event.data.maxClicks };
    case 'LinkFallbackChanged':
      return { fallback_url: event.data.fallbackUrl };
    case 'LinkPaused':
      return { paused: true };
    case 'LinkUnpaused':
      return { paused: false };
    case 'LinkTagsChanged':
      return { tags: event.data.tags };
    case 'LinkRulesChanged':
      return { rules: JSON.stringify(event.data.rules) };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/**
 * Codes whose redirect answer may have changed. Events that do not carry the code (retarget, delete)
 * name the link instead, as `link:{id}`: caches index their entries by link too.
 */
function codesTouched(recorded: RecordedEvent): string[] {
  if (isOwnerEvent(recorded)) return [`owner:${userStream.idOf(recorded)}`];
  const event = linkEvents.narrow(recorded);
  const link = `link:${linkStream.idOf(recorded)}`;
  switch (event.type) {
    case 'LinkCreated':
      return [event.data.code.toLowerCase()];
    case 'LinkCodeChanged':
      return [event.data.code.toLowerCase(), event.data.previousCode.toLowerCase(), link];
    case 'LinkCodeApproved':
      return [event.data.code.toLowerCase(), link];
    case 'LinkCodeRejected':
    case 'LinkRetargeted':
    case 'LinkDeleted':
    case 'LinkOwnerChanged':
    case 'LinkPasswordSet':
    case 'LinkPasswordRemoved':
    case 'LinkExpiryChanged':
    case 'LinkClickLimitChanged':
    case 'LinkFallbackChanged':
    case 'LinkPaused':
    case 'LinkUnpaused':
    case 'LinkRulesChanged':
      return [link];
    case 'LinkRetitled':
    case 'LinkTagsChanged':
      return [];
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
