import { createFileRoute } from '@tanstack/react-router';
import { useSignedInUser } from '../../accounts/useSignedInUser';
import { AdminPage } from '../../admin/AdminPage';
import { requireAdmin } from '../../admin/adminGate';

interface AdminSearch {
  /** The open tab; absent: the first (Overview). */
  tab?: string;
}

export const Route = createFileRoute('/_authenticated/admin')({
  validateSearch: (search: Record<string, unknown>): AdminSearch =>
    typeof search.tab === 'string' ? { tab: search.tab } : {},
  // The layout above has the signed-in user; only an admin gets further.
  beforeLoad: async ({ context: { user }, preload }) => ({ user: await requireAdmin(user, preload) }),
  component: AdminRoute,
});

function AdminRoute() {
  const user = useSignedInUser();
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <AdminPage user={user} tab={tab} onTabChange={(next) => void navigate({ search: { tab: next } })} />;
}
