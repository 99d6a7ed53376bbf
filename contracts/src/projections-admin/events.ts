import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';

/** A read model's operations stream `projection-{name}` (`projection-links`). */
export const projectionStream = stream('projection');

/** An admin or operator asked for a read model's rebuild: the audit history lists who and when. */
export const projectionEvents = eventGroup(
  defineEvent({
    type: 'ProjectionRebuildRequested',
    version: 1,
    schema: z.object({ projection: z.string().min(1), version: z.number().int() }),
  }),
);
export type ProjectionOperationEvent = EventsIn<typeof projectionEvents>;
