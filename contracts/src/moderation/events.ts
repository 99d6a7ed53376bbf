import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { brandCategories, wordCategories, wordSeverities } from './api';

/**
 * A prohibited word's stream `prohibitedword-{id}`. The id is derived from the word as codes compare it
 * (case, look-alikes and separators aside), so the same word added twice lands on one stream and its
 * expected revision refuses the second.
 */
export const prohibitedWordStream = stream('prohibitedword');
/** A protected brand's stream `protectedbrand-{id}`, its id derived from the name as a word's is. */
export const protectedBrandStream = stream('protectedbrand');

const wordId = z.object({ wordId: z.uuid() });
const brandId = z.object({ brandId: z.uuid() });

/** Events of a prohibited word's stream; the acting admin is each event's actor. */
export const prohibitedWordEvents = eventGroup(
  defineEvent({
    type: 'ProhibitedWordAdded',
    version: 1,
    schema: wordId.extend({
      word: z.string().min(1),
      category: z.enum(wordCategories),
      severity: z.enum(wordSeverities),
    }),
  }),
  defineEvent({ type: 'ProhibitedWordSwitchedOff', version: 1, schema: wordId }),
  defineEvent({ type: 'ProhibitedWordSwitchedOn', version: 1, schema: wordId }),
  /** Gone from the list: codes are no longer checked against it, and it may be added again. */
  defineEvent({ type: 'ProhibitedWordDeleted', version: 1, schema: wordId }),
);
export type ProhibitedWordEvent = EventsIn<typeof prohibitedWordEvents>;

/** Events of a protected brand's stream; the acting admin is each event's actor. */
export const protectedBrandEvents = eventGroup(
  defineEvent({
    type: 'ProtectedBrandAdded',
    version: 1,
    schema: brandId.extend({
      brand: z.string().min(1),
      category: z.enum(brandCategories),
      requiresApproval: z.boolean(),
    }),
  }),
  defineEvent({ type: 'ProtectedBrandSwitchedOff', version: 1, schema: brandId }),
  defineEvent({ type: 'ProtectedBrandSwitchedOn', version: 1, schema: brandId }),
  defineEvent({ type: 'ProtectedBrandDeleted', version: 1, schema: brandId }),
);
export type ProtectedBrandEvent = EventsIn<typeof protectedBrandEvents>;
