import {
  type LinkEvent,
  type LinkHistoryActor,
  type LinkHistoryEntry,
  type LinkHistoryType,
  linkEvents,
  linkStream,
} from '@sniplink/contracts';
import { channelOf, type EventStore, type RecordedEvent } from '@sniplink/platform';

type Change = { type: LinkHistoryType; summary: string };

/**
 * A link's changes for its owner, newest first, read from the link's own stream (the one record of every
 * change, whoever made it). The caller has checked that the link is theirs. Entries name no one: only the
 * kind of actor, so an admin's id or address never reaches the owner, and no password is in any event.
 */
export async function linkHistory(eventStore: EventStore, linkId: string): Promise<LinkHistoryEntry[]> {
  const recorded = (await eventStore.readStream(linkStream.id(linkId))).filter(
    (event): event is RecordedEvent & LinkEvent => linkEvents.includes(event),
  );
  // Everyone who owned the link is its owner here: a demo visitor's link moved into their account was theirs.
  const owners = new Set<string>();
  for (const event of recorded) {
    if (event.type === 'LinkCreated') owners.add(event.data.ownerId);
    if (event.type === 'LinkOwnerChanged') {
      owners.add(event.data.ownerId);
      owners.add(event.data.previousOwnerId);
    }
  }
  const entries: LinkHistoryEntry[] = [];
  for (const event of recorded) {
    const change = changeOf(event);
    if (!change) continue;
    entries.push({
      id: event.id,
      ...change,
      occurredAt: event.occurredAt.toISOString(),
      actor: actorOf(event, owners),
    });
  }
  return entries.reverse();
}

function actorOf(event: RecordedEvent, owners: ReadonlySet<string>): LinkHistoryActor {
  const channel = channelOf(event);
  if (channel === 'admin-console') return 'support';
  if (channel === 'operator' || event.actorId === 'operator') return 'operator';
  if (channel === 'api') return 'api-key';
  if (event.actorId !== null && owners.has(event.actorId)) return 'owner';
  return 'system';
}

const CREATED_AS: Record<string, string> = {
  dashboard: 'Created',
  duplicate: 'Created as a duplicate',
  demo: 'Created as a demo link',
};

function changeOf(event: LinkEvent): Change | null {
  switch (event.type) {
    case 'LinkCreated': {
      const { code, originalUrl, origin, review } = event.data;
      const created = CREATED_AS[origin] ?? 'Created';
      const waiting = review ? ' (waiting for approval)' : '';
      return { type: 'created', summary: `${created} with code ${code}${waiting}, to ${originalUrl}` };
    }
    case 'LinkRetitled':
      return {
        type: 'title-changed',
        summary: event.data.title === null ? 'Title removed' : `Title changed to “${event.data.title}”`,
      };
    case 'LinkRetargeted':
      return { type: 'target-changed', summary: `Target changed to ${event.data.originalUrl}` };
    case 'LinkCodeChanged': {
      const waiting = event.data.review ? ' (waiting for approval)' : '';
      return {
        type: 'code-changed',
        summary: `Code changed from ${event.data.previousCode} to ${event.data.code}${waiting}`,
      };
    }
    case 'LinkCodeApproved':
      return { type: 'code-approved', summary: `Code ${event.data.code} approved` };
    case 'LinkCodeRejected':
      return { type: 'code-rejected', summary: `Code ${event.data.code} refused: ${event.data.reason}` };
    case 'LinkOwnerChanged':
      return { type: 'owner-changed', summary: 'Moved into this account' };
    case 'LinkPasswordSet':
      return { type: 'password-set', summary: 'Password set' };
    case 'LinkPasswordRemoved':
      return { type: 'password-removed', summary: 'Password removed' };
    case 'LinkExpiryChanged':
      return {
        type: 'expiry-changed',
        summary:
          event.data.expiresAt === null
            ? 'Expiry date removed'
            : `Expires at ${new Date(event.data.expiresAt).toISOString().replace('T', ' ').slice(0, 16)} UTC`,
      };
    case 'LinkClickLimitChanged':
      return {
        type: 'click-limit-changed',
        summary:
          event.data.maxClicks === null
            ? 'Click limit removed'
            : `Click limit set to ${event.data.maxClicks.toLocaleString('en')}`,
      };
    case 'LinkFallbackChanged':
      return {
        type: 'fallback-changed',
        summary:
          event.data.fallbackUrl === null
            ? 'Fallback URL removed'
            : `Fallback URL set to ${event.data.fallbackUrl}`,
      };
    case 'LinkPaused':
      return { type: 'paused', summary: 'Paused' };
    case 'LinkUnpaused':
      return { type: 'unpaused', summary: 'Resumed' };
    case 'LinkTagsChanged':
      return {
        type: 'tags-changed',
        summary: event.data.tags.length === 0 ? 'Tags removed' : `Tags set to ${event.data.tags.join(', ')}`,
      };
    case 'LinkRulesChanged': {
      const count = event.data.rules.length;
      return {
        type: 'rules-changed',
        summary:
          count === 0
            ? 'Targeting rules removed'
            : `Targeting rules set: ${count} ${count === 1 ? 'rule' : 'rules'}`,
      };
    }
    // A deleted link has no history to show: its owner's calls answer 404.
    case 'LinkDeleted':
      return null;
  }
}
