import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { premiumCategories, premiumTiers } from './premium-slugs';

const slugId = z.object({ slugId: z.uuid() });

/** What an admin may change on a listed slug (admin-console.md section 3); absent is unchanged. */
const editable = z.object({
  price: z.number().int().min(0),
  category: z.enum(premiumCategories),
  tier: z.enum(premiumTiers),
  isAvailable: z.boolean(),
  stripePriceId: z.string().nullable(),
});

/**
 * Events of a premium slug's stream `premiumslug-{id}`: the catalogue entry an admin added, edited and
 * deleted. Its code is claimed in the short-code namespace (`shortcode-{slug}`) before it is added and
 * released after it is deleted. Each carries the acting admin in its metadata, so the audit history
 * needs nothing more.
 */
export const premiumSlugEvents = eventGroup(
  defineEvent({
    type: 'PremiumSlugAdded',
    version: 1,
    schema: slugId.extend({
      /** Lower-cased and trimmed, 1-20 characters. */
      slug: z.string().min(1).max(20),
      ...editable.shape,
    }),
  }),
  defineEvent({ type: 'PremiumSlugEdited', version: 1, schema: slugId.extend(editable.partial().shape) }),
  defineEvent({ type: 'PremiumSlugDeleted', version: 1, schema: slugId.extend({ slug: z.string() }) }),
);
export type PremiumSlugEvent = EventsIn<typeof premiumSlugEvents>;
