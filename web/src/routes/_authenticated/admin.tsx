import { createFileRoute } from '@tanstack/react-router';
import { AdminPage } from '../../admin/AdminPage';
import { requireAdmin } from '../../admin/adminGate';
import { adminSearchSchema } from '../../admin/places';
import { PageError } from '../../components/PageError';
import { PagePending } from '../../components/PagePending';

export const Route = createFileRoute('/_authenticated/admin')({
  validateSearch: adminSearchSchema,
  // The layout above has the signed-in user; only an admin gets further.
  beforeLoad: async ({ context: { user }, preload }) => ({ user: await requireAdmin(user, preload) }),
  // The whole place: a search, a page or an open dialog changes what the open tab shows.
  loaderDeps: ({ search }) => search,
  // The loader stays in the app's first chunk: it fetches the console's code with the open tab's data.
  loader: async ({ context: { queryClient }, deps }) => {
    const { loadAdminTab } = await import('../../admin/AdminPage');
    await loadAdminTab(queryClient, deps);
  },
  pendingComponent: PagePending,
  errorComponent: PageError,
  component: AdminRoute,
});

function AdminRoute() {
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <AdminPage tab={tab} onTabChange={(next) => void navigate({ search: { tab: next } })} />;
}
