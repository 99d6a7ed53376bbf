import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';

/**
 * The record of who read whose personal data in the Events tab: `disclosure-{streamId}`, one stream per
 * stream whose events were revealed (`disclosure-user-{id}`), so the audit history names what was read.
 */
export const disclosureStream = stream('disclosure');

export const disclosureEvents = eventGroup(
  /** An admin revealed the personal values of one event (the actor is that admin). */
  defineEvent({
    type: 'PersonalDataRevealed',
    version: 1,
    schema: z.object({
      streamId: z.string(),
      eventId: z.string(),
      revision: z.number().int().min(0),
      eventType: z.string(),
      /** Where the revealed values sit in the event's data; never the values. */
      fields: z.array(z.string()),
    }),
  }),
);
export type DisclosureEvent = EventsIn<typeof disclosureEvents>;
