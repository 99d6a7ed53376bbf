import { z } from 'zod';
import { rangeParam } from '../analytics/range';
import { idParam, pageParam } from '../places';

/**
 * The places of the signed-in home, in its address (at /home and at /): the page of the links (`page`),
 * the link whose analytics are open (`analytics`) and their range (`range`), the Support Center (`support=open`) and the ticket open
 * in it (`ticket`). A reload or a shared address opens the same place.
 */
export const dashboardSearchSchema = z.object({
  page: pageParam,
  analytics: idParam,
  range: rangeParam,
  support: z.literal('open').optional().catch(undefined),
  ticket: idParam,
});

export type DashboardSearch = z.infer<typeof dashboardSearchSchema>;
