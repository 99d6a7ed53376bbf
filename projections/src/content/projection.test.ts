import { EventRegistry } from '@sniplink/contracts';
import { type PageCopyEvent, pageCopyEvents, pageCopyStream } from '@sniplink/contracts/content/events';
import type { RecordedEvent } from '@sniplink/platform';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { describe, expect, it } from 'vitest';
import { pageCopyProjection } from './projection';
import { pageCopies, pageCopyVersions, publishedPageCopy } from './queries';

/**
 * Page copy events live on the content feature's own streams, which the shared test events do not know:
 * they are recorded here through a registry of their own, checked against their schemas as an append is.
 */
const registry = new EventRegistry([pageCopyEvents]);
const at = (second: number) => new Date(Date.UTC(2027, 0, 1, 0, 0, second));

function recordedOn(history: Array<[page: string, event: PageCopyEvent]>): RecordedEvent[] {
  const revisions = new Map<string, bigint>();
  return history.map(([page, event], index) => {
    const streamId = pageCopyStream.id(page);
    const revision = revisions.get(streamId) ?? 0n;
    revisions.set(streamId, revision + 1n);
    const stored = registry.toStored(event.type, event.data);
    return {
      id: crypto.randomUUID(),
      type: event.type,
      streamId,
      revision,
      globalPosition: { commit: BigInt(index), prepare: BigInt(index) },
      occurredAt: at(index),
      actorId: null,
      correlationId: null,
      causationId: null,
      schemaVersion: stored.schemaVersion,
      data: stored.data,
      metadata: {},
    };
  });
}

const draft = (page: 'privacy' | 'terms', title: string, content: string): PageCopyEvent => ({
  type: 'PageCopyDraftSaved',
  data: { page, title, content },
});
const published = (page: 'privacy', version: number, title: string, content: string): PageCopyEvent => ({
  type: 'PageCopyPublished',
  data: { page, version, title, content },
});

describe('page copy projection', () => {
  const spec = projectionSpec(pageCopyProjection);

  it('keeps each page at its last event, every published version, and the same rows when events come again', async () => {
    const events = recordedOn([
      ['privacy', draft('privacy', 'Privacy', 'First.')],
      ['privacy', published('privacy', 1, 'Privacy', 'First.')],
      ['privacy', draft('privacy', 'Privacy', 'Second, a draft.')],
      ['terms', draft('terms', 'Terms', 'Be kind.')],
    ]);
    await spec.apply(events);
    const expectedPages = [
      {
        page: 'privacy',
        title: 'Privacy',
        content: 'Second, a draft.',
        published: false,
        version: 1,
        publishedAt: at(1),
        updatedAt: at(2),
      },
      {
        page: 'terms',
        title: 'Terms',
        content: 'Be kind.',
        published: false,
        version: 0,
        publishedAt: null,
        updatedAt: at(3),
      },
    ];
    expect(await pageCopies(spec.db)).toEqual(expectedPages);
    const firstVersion = { version: 1, title: 'Privacy', content: 'First.', publishedAt: at(1) };
    expect(await pageCopyVersions(spec.db, 'privacy')).toEqual([firstVersion]);
    expect(await publishedPageCopy(spec.db, 'privacy')).toEqual(firstVersion);
    expect(await publishedPageCopy(spec.db, 'terms')).toBeUndefined();

    // Delivered again, all together or an older one alone: nothing changes.
    await spec.apply(events);
    await spec.apply(events.slice(0, 2));
    expect(await pageCopies(spec.db)).toEqual(expectedPages);
    expect(await pageCopyVersions(spec.db, 'privacy')).toEqual([firstVersion]);
  });
});
