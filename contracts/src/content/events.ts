import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { pageCopyKeys } from './api';

/** A page's copy stream `page-{page}` (`page-privacy`): its drafts and publications. */
export const pageCopyStream = stream('page');

/**
 * Events of a page's copy. Each carries the whole text, so a version is read back from its own event and a
 * rebuild needs nothing else. The acting admin is the event's actor.
 */
export const pageCopyEvents = eventGroup(
  defineEvent({
    type: 'PageCopyDraftSaved',
    version: 1,
    schema: z.object({ page: z.enum(pageCopyKeys), title: z.string(), content: z.string() }),
  }),
  defineEvent({
    type: 'PageCopyPublished',
    version: 1,
    schema: z.object({
      page: z.enum(pageCopyKeys),
      version: z.number().int().positive(),
      title: z.string(),
      content: z.string(),
    }),
  }),
);
export type PageCopyEvent = EventsIn<typeof pageCopyEvents>;
