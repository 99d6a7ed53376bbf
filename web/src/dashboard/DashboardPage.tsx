import { Container, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { User } from '@sniplink/contracts';
import { pages } from '@sniplink/contracts/pages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AnnouncementBanners } from '../admin/AnnouncementBanners';
import { userAnalyticsQueryOptions } from '../analytics/api';
import { PaymentFailedAlert } from '../billing/PaymentFailedAlert';
import { PageTitle } from '../components/PageTitle';
import { linksQueryOptions } from '../links/api';
import { CreateLinkForm } from '../links/CreateLinkForm';
import { LinkList } from '../links/LinkList';
import { MyPremiumSlugsCard } from '../marketplace/MyPremiumSlugsCard';
import { SupportDialog } from '../support/SupportDialog';
import { DashboardGreeting } from './DashboardGreeting';
import { DashboardStats } from './DashboardStats';
import { OnboardingCard } from './OnboardingCard';

/** The signed-in home, at /home and at /. */
export function DashboardPage({ user }: { user: User }) {
  return (
    <Container size="lg" py="xl">
      <PageTitle title={pages['/home'].title} />
      <Dashboard user={user} />
    </Container>
  );
}

function Dashboard({ user }: { user: User }) {
  const links = useQuery(linksQueryOptions());
  const analytics = useQuery(userAnalyticsQueryOptions());
  const [page, setPage] = useState(1);
  const [supportOpen, support] = useDisclosure(false);
  const totalLinks = analytics.data?.totalLinks ?? links.data?.length;

  return (
    <Stack gap="lg">
      <DashboardGreeting user={user} totalLinks={totalLinks} onOpenSupport={support.open} />
      <AnnouncementBanners />
      <PaymentFailedAlert billing={user.billing} />
      <OnboardingCard usedCount={user.linkAllowance.used} />
      <CreateLinkForm linksRemaining={user.linkAllowance.remaining} onCreated={() => setPage(1)} />
      <DashboardStats user={user} totalLinks={totalLinks} totalClicks={analytics.data?.totalClicks} />
      <LinkList links={links.data} failed={links.isError} page={page} onPageChange={setPage} />
      <MyPremiumSlugsCard />
      <SupportDialog opened={supportOpen} onClose={support.close} />
    </Stack>
  );
}
