import { Container, Stack } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { livenessQueryOptions, readinessQueryOptions } from '../api/health';
import { PageTitle } from '../components/PageTitle';
import { Hero } from '../landing/Hero';
import { SystemStatusCard } from '../landing/SystemStatusCard';

const pageTitle = 'Professional URL Shortening';

export const Route = createFileRoute('/')({
  // Start the status calls while the page's code chunk loads; the card shows them as they arrive,
  // so a slow or failing check never holds back the page.
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(livenessQueryOptions());
    void queryClient.prefetchQuery(readinessQueryOptions());
  },
  component: LandingPage,
});

function LandingPage() {
  return (
    <Container size="lg" py="xl">
      <PageTitle title={pageTitle} />
      <Stack gap="xl">
        <Hero headline={pageTitle} />
        <SystemStatusCard />
      </Stack>
    </Container>
  );
}
