import { Container } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute } from '@tanstack/react-router';
import { ProfileSettings } from '../../accounts/ProfileSettings';
import { useSignedInUser } from '../../accounts/useSignedInUser';
import { PageTitle } from '../../components/PageTitle';

export const Route = createFileRoute('/_authenticated/profile')({
  component: ProfilePage,
});

function ProfilePage() {
  const user = useSignedInUser();
  return (
    <Container size="sm" py="xl">
      <PageTitle title={pages['/profile'].title} />
      <ProfileSettings user={user} />
    </Container>
  );
}
