import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import {
  ADMIN_DOC_CONTENT_MAX,
  ADMIN_DOC_SORT_ORDER_MAX,
  ADMIN_DOC_TITLE_MAX,
  adminDocSections,
} from './api';

/** A doc's stream `admindoc-{docId}`. */
export const adminDocStream = stream('admindoc');

const docFields = z.object({
  section: z.enum(adminDocSections),
  title: z.string().min(1).max(ADMIN_DOC_TITLE_MAX),
  content: z.string().min(1).max(ADMIN_DOC_CONTENT_MAX),
  sortOrder: z.number().int().min(0).max(ADMIN_DOC_SORT_ORDER_MAX),
});

/**
 * Events of a doc's stream `admindoc-{docId}`. Each carries the acting admin in its metadata (the command
 * context's actor), which is who the console names as having changed it last, and the audit history's
 * actor. A doc's text is no one's personal data: it is stored in the clear.
 */
export const adminDocEvents = eventGroup(
  defineEvent({
    type: 'AdminDocCreated',
    version: 1,
    schema: docFields.extend({
      docId: z.uuid(),
      /** Added by the starter set (`POST /api/admin/docs/seed`), not written by an admin. */
      seeded: z.boolean(),
    }),
  }),
  /** The whole doc as it now is (every field, changed or not). */
  defineEvent({ type: 'AdminDocEdited', version: 1, schema: docFields.extend({ docId: z.uuid() }) }),
  /** Gone from the Docs tab; its title, so the audit history says which doc it was. */
  defineEvent({
    type: 'AdminDocDeleted',
    version: 1,
    schema: z.object({ docId: z.uuid(), title: z.string() }),
  }),
);
export type AdminDocEvent = EventsIn<typeof adminDocEvents>;
