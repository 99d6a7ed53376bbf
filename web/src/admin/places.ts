import {
  premiumAvailabilityFilters,
  seoPageKeys,
  ticketPriorities,
  ticketStatuses,
} from '@sniplink/contracts';
import { adminDocSections } from '@sniplink/contracts/admin-docs/api';
import { approvalStatuses } from '@sniplink/contracts/moderation/lists';
import { premiumCategories, premiumTiers } from '@sniplink/contracts/premium-slugs';
import { getRouteApi } from '@tanstack/react-router';
import { z } from 'zod';
import { idParam, pageParam, revisionParam, textParam } from '../places';

/** The Moderate tab's sub-tabs, in the address as `list` (the first without it). */
export const moderationLists = ['words', 'brands', 'approvals'] as const;

/**
 * The console's places, in its address: the tab (`tab`, Overview without it); on the Users tab, the
 * search (`q`), its page (`page`) and the user whose View dialog is open (`user`); on the Support tab,
 * the filters (`status`, `priority`), the page (`page`) and the ticket whose thread is open (`ticket`);
 * on the Premium tab, the search (`q`), the filters (`category`, `tier`, `availability`) and the page
 * (`page`); on the SEO tab, the page whose editor is open (`seoPage`); on the Docs tab, the section
 * (`section`); on the Moderate tab, the list (`list`: words, brands or approvals), the approvals' status
 * filter (`approval`) and the page (`page`); on the Events tab, the search (`q`), the stream (`stream`), the
 * first revision listed (`from`), the event whose state is open (`event`) and the request whose events are
 * listed (`correlation`). A reload or a shared address opens the same place; a filter
 * value that is not one is none.
 */
export const adminSearchSchema = z.object({
  tab: z.string().optional().catch(undefined),
  q: textParam,
  page: pageParam,
  user: idParam,
  status: z.enum(ticketStatuses).optional().catch(undefined),
  priority: z.enum(ticketPriorities).optional().catch(undefined),
  ticket: idParam,
  category: z.enum(premiumCategories).optional().catch(undefined),
  tier: z.enum(premiumTiers).optional().catch(undefined),
  availability: z.enum(premiumAvailabilityFilters).optional().catch(undefined),
  seoPage: z.enum(seoPageKeys).optional().catch(undefined),
  section: z.enum(adminDocSections).optional().catch(undefined),
  list: z.enum(moderationLists).optional().catch(undefined),
  approval: z.enum(approvalStatuses).optional().catch(undefined),
  stream: idParam,
  from: revisionParam,
  event: revisionParam,
  correlation: idParam,
});

export type AdminSearch = z.infer<typeof adminSearchSchema>;

export const adminRoute = getRouteApi('/_authenticated/admin');
