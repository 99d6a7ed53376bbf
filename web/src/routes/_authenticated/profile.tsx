import { Container } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute } from '@tanstack/react-router';
import { PageTitle } from '../../components/PageTitle';
import { ProfileSettings } from '../../dashboard/ProfileSettings';
import { useSignedInUser } from '../../dashboard/useSignedInUser';

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
