import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { User } from '@sniplink/contracts';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { ApiError } from '../api/http';
import { ApiKeysCard } from '../api-keys/ApiKeysCard';
import { planNameOf } from '../billing/billingFacts';
import { ManageBillingButton } from '../billing/ManageBillingButton';
import { DialogActions } from '../components/DialogActions';
import { readableDate } from '../components/dates';
import { useInAppClick } from '../components/inAppLink';
import { toast } from '../components/toast';
import { DataExportCard } from '../exports/DataExportCard';
import { allowanceFigures } from '../links/linkAllowance';
import { WebhooksCard } from '../webhooks/WebhooksCard';
import { useResendVerification, useUpdateProfile } from './api';
import { isPro, planStatusText } from './plan';

export function ProfileSettings({ user }: { user: User }) {
  return (
    <Stack gap="lg">
      <Title order={1}>Profile Settings</Title>
      <PersonalDetailsForm user={user} />
      <AccountCard user={user} />
      <ApiKeysCard />
      <WebhooksCard />
      <DataExportCard />
      <DangerZone />
    </Stack>
  );
}

function PersonalDetailsForm({ user }: { user: User }) {
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const updateProfile = useUpdateProfile();

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="lg" mb="md">
        Personal details
      </Title>
      <form
        aria-label="Personal details"
        onSubmit={(event) => {
          event.preventDefault();
          updateProfile.mutate(
            { firstName: firstName.trim(), lastName: lastName.trim() },
            {
              onSuccess: () => toast.success('Profile updated', 'Your changes have been saved.'),
              onError: () => toast.error('Update failed', 'Failed to update profile. Please try again.'),
            },
          );
        }}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label="First name"
              autoComplete="given-name"
              value={firstName}
              onChange={(event) => setFirstName(event.currentTarget.value)}
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              value={lastName}
              onChange={(event) => setLastName(event.currentTarget.value)}
            />
          </SimpleGrid>
          <TextInput
            label="E-mail"
            value={user.email ?? ''}
            readOnly
            description="Your e-mail cannot be changed here."
          />
          {!user.emailVerified && <EmailConfirmation />}
          <Group justify="flex-end">
            <Button type="submit" loading={updateProfile.isPending}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The address is not confirmed yet: the mailed link can be sent again. */
function EmailConfirmation() {
  const resend = useResendVerification();
  const send = () =>
    resend.mutate(undefined, {
      onSuccess: () => toast.success('Confirmation sent', 'Open the link in the e-mail we just sent you.'),
      onError: (error) =>
        toast.error(
          'Not sent',
          error instanceof ApiError && error.status === 429
            ? 'You have asked for several links already; please try again later.'
            : 'The confirmation e-mail could not be sent. Please try again.',
        ),
    });
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        Your e-mail address is not confirmed yet.
      </Text>
      <Button variant="default" size="xs" loading={resend.isPending} onClick={send}>
        Send the confirmation link again
      </Button>
    </Group>
  );
}

function AccountCard({ user }: { user: User }) {
  const pro = isPro(user);
  const allowance = allowanceFigures(user.linkAllowance);
  const goToAdmin = useInAppClick('/admin');

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="lg" mb="md">
        Account
      </Title>
      <Stack gap="sm">
        <AccountFact label="Plan">
          <Badge color={pro ? 'violet' : 'gray'} variant="light" tt="none">
            {planNameOf(user)}
          </Badge>
        </AccountFact>
        <AccountFact label="Status">{planStatusText(user, (iso) => readableDate(iso))}</AccountFact>
        <AccountFact label="Member since">{readableDate(user.createdAt)}</AccountFact>
        <div>
          <AccountFact label={allowance.lineLabel}>{allowance.usedOfLimit}</AccountFact>
          <Progress mt={6} value={allowance.percentUsed} aria-label={allowance.description} />
        </div>
      </Stack>
      {(!pro || user.billing.canManage || user.isAdmin) && (
        <Group mt="lg" gap="sm">
          {!pro && (
            <Button component={Link} to="/subscribe">
              Upgrade to Pro
            </Button>
          )}
          {user.billing.canManage && <ManageBillingButton />}
          {user.isAdmin && (
            <Button component="a" href="/admin" onClick={goToAdmin} variant="default">
              Admin Panel
            </Button>
          )}
        </Group>
      )}
    </Card>
  );
}

function AccountFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm">
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <Text component="div" fw={500} size="sm">
        {children}
      </Text>
    </Group>
  );
}

function DangerZone() {
  const [opened, dialog] = useDisclosure(false);
  const [confirmed, setConfirmed] = useState(false);
  const close = () => {
    dialog.close();
    setConfirmed(false);
  };

  return (
    <Card withBorder radius="md" padding="lg" style={{ borderColor: 'var(--mantine-color-red-6)' }}>
      <Title order={2} fz="lg" c="red.8">
        Danger Zone
      </Title>
      <Text size="sm" mt="xs">
        Deleting your account removes your links and their analytics for good.
      </Text>
      <Group mt="md">
        <Button color="red" variant="outline" onClick={dialog.open}>
          Delete Account
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title="Delete Account" centered>
        {confirmed ? (
          <>
            <Text>To delete your account, please contact support. We will take care of it for you.</Text>
            <Group justify="flex-end" mt="lg">
              <Button onClick={close}>Close</Button>
            </Group>
          </>
        ) : (
          <>
            <Text>Are you sure you want to delete your account? This action cannot be undone.</Text>
            <DialogActions onCancel={close} mt="lg" color="red" onClick={() => setConfirmed(true)}>
              Delete Account
            </DialogActions>
          </>
        )}
      </Modal>
    </Card>
  );
}
