import { Badge, Button, Center, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { ADMIN_USERS_MAX_PAGE, type AdminUser } from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListTable } from '../components/ListTable';
import { pageInAddress } from '../places';
import { adminRoute } from './places';
import { SearchInAddress } from './SearchInAddress';
import { UserDialog } from './UserDialog';
import { fullName, joined, SubscriptionBadges } from './userFacts';
import { adminUsersExportUrl, adminUsersQueryOptions } from './usersApi';

/**
 * The console's Users tab: search by e-mail or full name (on the server), the
 * table, pages of 20, the CSV export of the current search, and the View dialog.
 */
export function UsersTab() {
  const { q: search = '', page = 1, user: viewingId } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const setPage = (next: number) =>
    void navigate({ search: (previous) => ({ ...previous, page: pageInAddress(next) }), replace: true });
  // The user as the server last answered a change in the dialog, until the list shows it too.
  const [changed, setChanged] = useState<AdminUser | null>(null);
  // The console's loader has this page of the search and the open dialog's history.
  const { data: found } = useSuspenseQuery(adminUsersQueryOptions(search, page));
  // The View dialog's user is named in the address (`?user=`): a reload finds them on the same page of
  // the same search.
  const viewing =
    viewingId === undefined
      ? null
      : changed?.id === viewingId
        ? changed
        : (found.users.find((one) => one.id === viewingId) ?? null);
  const view = (user: AdminUser) => {
    setChanged(null);
    void navigate({ search: (previous) => ({ ...previous, user: user.id }) });
  };
  const closeView = () => {
    setChanged(null);
    void navigate({ search: (previous) => ({ ...previous, user: undefined }), replace: true });
  };
  const pageCount = Math.min(ADMIN_USERS_MAX_PAGE, Math.max(1, Math.ceil(found.total / found.pageSize)));

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <SearchInAddress label="Search users" placeholder="Search by email or name" w={320} />
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            {found.total.toLocaleString()}
            {found.totalCapped ? '+' : ''} {found.total === 1 ? 'user' : 'users'}
          </Text>
          <Button component="a" href={adminUsersExportUrl(search)} download variant="default" size="sm">
            Export
          </Button>
        </Group>
      </Group>
      {found.users.length === 0 ? (
        <Text c="dimmed">No users match this search.</Text>
      ) : (
        <UsersTable users={found.users} onView={view} />
      )}
      {pageCount > 1 && (
        <Center>
          <Pagination
            total={pageCount}
            value={page}
            onChange={setPage}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            size="sm"
          />
        </Center>
      )}
      {viewing && <UserDialog user={viewing} onChange={setChanged} onClose={closeView} />}
    </Stack>
  );
}

function UsersTable({ users, onView }: { users: AdminUser[]; onView(user: AdminUser): void }) {
  return (
    <ListTable
      minWidth={720}
      striped
      highlightOnHover
      verticalSpacing="xs"
      headings={['User', 'Subscription', 'Links created', 'Admin', 'Joined', { hidden: 'Actions' }]}
    >
      {users.map((user) => (
        <Table.Tr key={user.id}>
          <Table.Td>
            <Text size="sm" fw={500}>
              {fullName(user) || '—'}
            </Text>
            <Text size="xs" c="dimmed">
              {user.email ?? '—'}
            </Text>
          </Table.Td>
          <Table.Td>
            <SubscriptionBadges user={user} />
          </Table.Td>
          <Table.Td>{user.linksCreatedThisMonth}</Table.Td>
          <Table.Td>{user.isAdmin ? <Badge color="red">Admin</Badge> : <Text size="sm">—</Text>}</Table.Td>
          <Table.Td>{joined(user)}</Table.Td>
          <Table.Td>
            <Button
              variant="subtle"
              size="xs"
              onClick={() => onView(user)}
              aria-label={`View ${user.email ?? user.id}`}
            >
              View
            </Button>
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
