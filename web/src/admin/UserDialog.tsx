import { Button, Divider, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import type { AdminUser } from '@sniplink/contracts';
import { ApiError } from '../api/http';
import { UserApiKeys } from '../api-keys/UserApiKeys';
import { toast } from '../components/toast';
import { AuditHistory } from './AuditHistory';
import { fullName, joined, SubscriptionBadges } from './userFacts';
import { useSetAdmin, useSuspendUser } from './usersApi';

/** The server's own message (the last admin's 409, say), else "{status}: {body}". */
const problem = (error: Error) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : error.message;

/**
 * The View dialog: the user's facts, the admin switch, Suspend / Unsuspend, their API keys, and
 * the user's history. `onChange` gets the user as the server answers after each change.
 */
export function UserDialog({
  user,
  onChange,
  onClose,
}: {
  user: AdminUser;
  onChange(user: AdminUser): void;
  onClose(): void;
}) {
  const setAdmin = useSetAdmin();
  const suspend = useSuspendUser();

  const switchAdmin = (isAdmin: boolean) =>
    setAdmin.mutate(
      { id: user.id, isAdmin },
      {
        onSuccess: (changed) => {
          onChange(changed);
          toast.success(isAdmin ? 'Admin privileges granted' : 'Admin privileges removed');
        },
        onError: (error) => toast.error('Error', problem(error)),
      },
    );

  const toggleSuspension = () =>
    suspend.mutate(
      { id: user.id, suspended: !user.suspended },
      {
        onSuccess: (changed) => {
          onChange(changed);
          toast.success(changed.suspended ? 'User suspended' : 'User unsuspended');
        },
        onError: (error) => toast.error('Error', problem(error)),
      },
    );

  return (
    <Modal opened onClose={onClose} title="User details" size="lg">
      <Stack gap="sm">
        <div>
          <Text fw={600}>{fullName(user) || '—'}</Text>
          <Text size="sm" c="dimmed">
            {user.email ?? '—'}
          </Text>
        </div>
        <Group gap="xl">
          <SubscriptionBadges user={user} />
          <Text size="sm">Links created this month: {user.linksCreatedThisMonth}</Text>
          <Text size="sm">Links held: {user.liveLinks}</Text>
          <Text size="sm">Joined {joined(user)}</Text>
        </Group>
        <Switch
          label="Admin privileges"
          checked={user.isAdmin}
          disabled={setAdmin.isPending}
          onChange={(event) => switchAdmin(event.currentTarget.checked)}
        />
        <Group>
          <Button
            color={user.suspended ? 'green' : 'red'}
            variant={user.suspended ? 'filled' : 'light'}
            loading={suspend.isPending}
            onClick={toggleSuspension}
          >
            {user.suspended ? 'Unsuspend' : 'Suspend'}
          </Button>
        </Group>
        <Divider label="API keys" labelPosition="left" />
        <UserApiKeys userId={user.id} />
        <Divider label="History" labelPosition="left" />
        <AuditHistory target={`user-${user.id}`} />
      </Stack>
    </Modal>
  );
}
