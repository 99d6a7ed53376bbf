import { Container, Stack } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { pages } from '@sniplink/contracts/pages';
import type { QueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { userAnalyticsQueryOptions } from '../analytics/api';
import { PageTitle } from '../components/PageTitle';
import { dashboardCards } from '../features';
import { linksQueryOptions } from '../links/api';

/** What the home needs before it shows: the links and the totals over them (the route's loader waits). */
export async function loadDashboard(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.ensureQueryData(linksQueryOptions()),
    queryClient.ensureQueryData(userAnalyticsQueryOptions()),
  ]);
}

/** The signed-in home, at /home and at /: every feature's cards, in their order. */
export function DashboardPage({ user }: { user: User }) {
  return (
    <Container size="lg" py="xl">
      <PageTitle title={pages['/home'].title} />
      <Stack gap="lg">
        {dashboardCards.map((card) => (
          <Fragment key={card.key}>{card.render({ user })}</Fragment>
        ))}
      </Stack>
    </Container>
  );
}
