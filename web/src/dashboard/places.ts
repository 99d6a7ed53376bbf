import { z } from 'zod';
import { idParam, pageParam, textParam } from '../places';

/** The links list's orders besides the default, newest first. */
export const linkSorts = ['clicks', 'title'] as const;
export type LinkSort = (typeof linkSorts)[number];

/**
 * The places of the signed-in home, in its address (at /home and at /): the page of the links (`page`),
 * the link whose analytics are open (`analytics`), the Support Center (`support=open`) and the ticket open
 * in it (`ticket`), the links' search (`q`) and order (`sort`; newest first without it). A reload or a
 * shared address opens the same place.
 */
export const dashboardSearchSchema = z.object({
  page: pageParam,
  q: textParam,
  sort: z.enum(linkSorts).optional().catch(undefined),
  analytics: idParam,
  support: z.literal('open').optional().catch(undefined),
  ticket: idParam,
});

export type DashboardSearch = z.infer<typeof dashboardSearchSchema>;
