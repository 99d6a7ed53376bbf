import { Container } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute } from '@tanstack/react-router';
import { PageTitle } from '../../components/PageTitle';
import { OnboardingSteps } from '../../dashboard/OnboardingSteps';

export const Route = createFileRoute('/_authenticated/onboarding')({
  component: OnboardingPage,
});

function OnboardingPage() {
  return (
    <Container size="sm" py="xl">
      <PageTitle title={pages['/onboarding'].title} />
      <OnboardingSteps />
    </Container>
  );
}
