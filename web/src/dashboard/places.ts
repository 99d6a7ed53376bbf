import { useNavigate, useSearch } from '@tanstack/react-router';
import { z } from 'zod';
import { idParam, pageParam } from '../places';

/**
 * The places of the signed-in home, in its address (at /home and at /): the page of the links (`page`),
 * the link whose analytics are open (`analytics`), the Support Center (`support=open`) and the ticket open
 * in it (`ticket`). A reload or a shared address opens the same place.
 */
export const dashboardSearchSchema = z.object({
  page: pageParam,
  analytics: idParam,
  support: z.literal('open').optional().catch(undefined),
  ticket: idParam,
});

export type DashboardSearch = z.infer<typeof dashboardSearchSchema>;

/**
 * The home's places and a way to change them. `replace` for a change the back button should not undo
 * one by one (closing a dialog, turning a page, unfolding a link's analytics).
 */
export function useDashboardPlace(): {
  place: DashboardSearch;
  go(change: DashboardSearch, options?: { replace?: boolean }): void;
} {
  const search = useSearch({ strict: false });
  const navigate = useNavigate();
  const place = dashboardSearchSchema.parse(search);
  return {
    place,
    go: (change, options) =>
      void navigate({
        to: '.',
        search: (previous) => ({ ...previous, ...change }),
        replace: options?.replace ?? false,
      }),
  };
}
