import { z } from 'zod';
import { rangeParam } from '../analytics/range';
import { idParam, pageParam, textParam } from '../places';

/** The links list's orders besides the default, newest first. */
export const linkSorts = ['clicks', 'title'] as const;
export type LinkSort = (typeof linkSorts)[number];
/** Links per page: 5 without `per` in the address. */
export const linkPageSizes = [5, 10, 25, 50] as const;
export type LinkPageSize = (typeof linkPageSizes)[number];

/**
 * The places of the signed-in home, in its address (at /home and at /): the page of the links (`page`),
 * the link whose analytics are open (`analytics`), their range (`range`) or its history instead (`details=history`), the Support Center (`support=open`) and the ticket open
 * in it (`ticket`), the import dialog (`imports=open`), the links' search (`q`), tag filter (`tag`), order (`sort`; newest first without it)
 * and page size (`per`; 5 without it). A reload or a shared address opens the same place.
 */
export const dashboardSearchSchema = z.object({
  page: pageParam,
  q: textParam,
  tag: textParam,
  sort: z.enum(linkSorts).optional().catch(undefined),
  per: z
    .union([z.literal(10), z.literal(25), z.literal(50)])
    .optional()
    .catch(undefined),
  analytics: idParam,
  /** The open link's History tab instead of its analytics. */
  details: z.literal('history').optional().catch(undefined),
  range: rangeParam,
  support: z.literal('open').optional().catch(undefined),
  imports: z.literal('open').optional().catch(undefined),
  ticket: idParam,
});

export type DashboardSearch = z.infer<typeof dashboardSearchSchema>;
