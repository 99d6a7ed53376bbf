import { Center, Container, Loader } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute } from '@tanstack/react-router';
import { PageTitle } from '../components/PageTitle';
import { OnboardingSteps } from '../dashboard/OnboardingSteps';
import { useSignedInUser } from '../dashboard/useSignedInUser';

export const Route = createFileRoute('/onboarding')({
  component: OnboardingPage,
});

function OnboardingPage() {
  const user = useSignedInUser();
  return (
    <Container size="sm" py="xl">
      <PageTitle title={pages['/onboarding'].title} />
      {user ? (
        <OnboardingSteps />
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      )}
    </Container>
  );
}
