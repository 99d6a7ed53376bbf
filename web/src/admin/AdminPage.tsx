import { Alert, Badge, Group, Loader, Tabs, Title } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import type { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { PageTitle } from '../components/PageTitle';
import { SignedInPage } from '../components/SignedInPage';
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
 * The admin console in the signed-in shell: its title with the ADMIN badge, then the tabs. Who is signed
 * in and Logout are the shell's avatar menu.
 */
export function AdminPage({ tab, onTabChange }: { tab: string | undefined; onTabChange(tab: string): void }) {
  const active = tabNamed(tab);
  return (
    <SignedInPage>
      <PageTitle title={pages['/admin'].title} />
      <Group gap="sm" mb="lg">
        <Title order={1}>{pages['/admin'].title}</Title>
        <Badge color="red" variant="filled">
          ADMIN
        </Badge>
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
    </SignedInPage>
  );
}

function UnknownTab({ name }: { name: string }) {
  return (
    <Alert color="yellow" title="No such tab" mb="md" role="status">
      The admin console has no tab named “{name}”. Choose one of the tabs below.
    </Alert>
  );
}
