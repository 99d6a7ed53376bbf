import { type LinkEvent, linkEvents, linkStream, userEvents, userStream } from '@sniplink/contracts';
import type { ReadModel, RecordedEvent } from '@sniplink/platform';
import type { Transaction, UpdateObject } from 'kysely';
import type { Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

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
      for (const event of events) {
        if (isOwnerEvent(event)) await applyOwnerEvent(trx, event);
        else await applyLinkEvent(trx, event);
      }
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

async function applyLinkEvent(trx: Transaction<ReadModelDatabase>, recorded: RecordedEvent): Promise<void> {
  const linkId = linkStream.idOf(recorded);
  const revision = recorded.revision.toString();
  const event = linkEvents.narrow(recorded);
  const at = recorded.occurredAt;
  if (event.type === 'LinkCreated') {
    const { ownerId, code, originalUrl, title, origin } = event.data;
    await trx
      .insertInto('rm_links')
      .values({
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
        last_revision: revision,
      })
      .onConflict((oc) => oc.column('link_id').doNothing())
      .execute();
    return;
  }
  await trx
    .updateTable('rm_links')
    .set({ ...changesFor(event), updated_at: at, last_revision: revision })
    .where('link_id', '=', linkId)
    .where('last_revision', '<', revision)
    .execute();
}

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
