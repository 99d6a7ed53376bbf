import {
  premiumAvailabilityFilters,
  seoPageKeys,
  ticketPriorities,
  ticketStatuses,
} from '@sniplink/contracts';
import { adminDocSections } from '@sniplink/contracts/admin-docs/api';
import { premiumCategories, premiumTiers } from '@sniplink/contracts/premium-slugs';
import { getRouteApi } from '@tanstack/react-router';
import { z } from 'zod';
import { idParam, pageParam, textParam } from '../places';

/**
 * The console's places, in its address: the tab (`tab`, Overview without it); on the Users tab, the
 * search (`q`), its page (`page`) and the user whose View dialog is open (`user`); on the Support tab,
 * the filters (`status`, `priority`), the page (`page`) and the ticket whose thread is open (`ticket`);
 * on the Premium tab, the search (`q`), the filters (`category`, `tier`, `availability`) and the page
 * (`page`); on the SEO tab, the page whose editor is open (`seoPage`); on the Docs tab, the section
 * (`section`). A reload or a shared address opens the same place; a filter value that is not one is none.
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
});

export type AdminSearch = z.infer<typeof adminSearchSchema>;

export const adminRoute = getRouteApi('/_authenticated/admin');
