import { Alert, Badge, Button, Container, Group, Loader, Tabs, Text, Title } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { pages } from '@sniplink/contracts/pages';
import type { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { signOutHref } from '../accounts/loginLinks';
import { PageTitle } from '../components/PageTitle';
import { adminTabs } from '../features';
import type { AdminSearch } from './places';

/** The open tab: the one named in the address, the first (Overview) when none is; undefined for a name no tab has. */
const tabNamed = (tab: string | undefined) =>
  tab === undefined ? adminTabs[0] : adminTabs.find((candidate) => candidate.value === tab);

/** Loads what the open tab shows, before the console shows it. */
export async function loadAdminTab(queryClient: QueryClient, place: AdminSearch): Promise<void> {
  await tabNamed(place.tab)?.load?.(queryClient, place);
}

/**
 * The admin console: a header with the ADMIN badge, the admin's e-mail and
 * a logout button, then the tabs. Logout is a navigation to the sign-out address.
 */
export function AdminPage({
  user,
  tab,
  onTabChange,
}: {
  user: User;
  tab: string | undefined;
  onTabChange(tab: string): void;
}) {
  const active = tabNamed(tab);
  return (
    <Container size="xl" py="lg">
      <PageTitle title={pages['/admin'].title} />
      <Group justify="space-between" mb="lg" wrap="wrap">
        <Group gap="sm">
          <Title order={1} size="h2">
            {pages['/admin'].title}
          </Title>
          <Badge color="red" variant="filled">
            ADMIN
          </Badge>
        </Group>
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            {user.email}
          </Text>
          <Button component="a" href={signOutHref} variant="default" size="xs">
            Logout
          </Button>
        </Group>
      </Group>
      {/* An address naming no tab says so, rather than showing another tab under it. */}
      {!active && tab !== undefined && <UnknownTab name={tab} />}
      <Tabs
        value={active?.value ?? null}
        onChange={(value) => value && onTabChange(value)}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {adminTabs.map((entry) => (
            <Tabs.Tab key={entry.value} value={entry.value}>
              {entry.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {adminTabs.map((entry) => (
          <Tabs.Panel key={entry.value} value={entry.value}>
            <Suspense fallback={<Loader role="status" aria-label="Loading" />}>{entry.panel()}</Suspense>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Container>
  );
}

function UnknownTab({ name }: { name: string }) {
  return (
    <Alert color="yellow" title="No such tab" mb="md" role="status">
      The admin console has no tab named “{name}”. Choose one of the tabs below.
    </Alert>
  );
}
