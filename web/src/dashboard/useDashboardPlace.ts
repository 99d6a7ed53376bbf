import { useNavigate, useSearch } from '@tanstack/react-router';
import { type DashboardSearch, dashboardSearchSchema } from './places';

// Apart from the schema: the landing page's route reads the schema, and only the dashboard this hook.
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
