import { Container, Stack } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { pages } from '@sniplink/contracts/pages';
import type { QueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { userAnnouncementsQueryOptions } from '../admin/announcementsApi';
import { linkAnalyticsQueryOptions, userAnalyticsQueryOptions } from '../analytics/api';
import { rangeOf } from '../analytics/range';
import { PageTitle } from '../components/PageTitle';
import { dashboardCards } from '../features';
import { linksQueryOptions } from '../links/api';
import { linkLimitsQueryOptions } from '../links/limitsApi';
import { myPremiumSlugsQueryOptions } from '../marketplace/api';
import { loadSupportCenter } from '../support/api';
import type { DashboardSearch } from './places';

/**
 * What the home needs before it shows (the route's loader waits): the links and the totals over them,
 * and what its places in the address open: the Support Center's tickets, the open ticket's conversation
 * and the unfolded link's analytics. An id in the address that is not the user's loads nothing more:
 * the place opens nothing.
 */
export async function loadDashboard(queryClient: QueryClient, place: DashboardSearch): Promise<void> {
  const [links] = await Promise.all([
    queryClient.ensureQueryData(linksQueryOptions()),
    queryClient.ensureQueryData(userAnalyticsQueryOptions()),
    loadSupportCenter(queryClient, place),
    // A prefetch never fails: an announcement or premium slug that cannot be loaded hides its card and
    // leaves the home as it is.
    queryClient.prefetchQuery(userAnnouncementsQueryOptions()),
    queryClient.prefetchQuery(myPremiumSlugsQueryOptions()),
    // The payment toast and the onboarding name Pro's allowance in force.
    queryClient.prefetchQuery(linkLimitsQueryOptions()),
  ]);
  const unfolded = links.find((link) => link.id === place.analytics);
  // A prefetch: a range the API refuses (a day that does not exist, typed in the address) is told in the
  // panel, and leaves the rest of the home as it is.
  if (unfolded) await queryClient.prefetchQuery(linkAnalyticsQueryOptions(unfolded.id, rangeOf(place.range)));
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
