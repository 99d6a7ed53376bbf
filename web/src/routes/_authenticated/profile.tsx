import { Box } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute } from '@tanstack/react-router';
import { ProfileSettings } from '../../accounts/ProfileSettings';
import { useSignedInUser } from '../../accounts/useSignedInUser';
import { PageTitle } from '../../components/PageTitle';
import { SignedInPage } from '../../components/SignedInPage';

export const Route = createFileRoute('/_authenticated/profile')({
  // Imported here, not above: the loader is part of the first chunk every page loads, and the keys' and
  // webhooks' calls and schemas belong to this page alone.
  loader: async ({ context: { queryClient } }) => {
    const [{ apiKeysQueryOptions }, { webhooksQueryOptions }] = await Promise.all([
      import('../../api-keys/api'),
      import('../../webhooks/api'),
    ]);
    return Promise.all([
      queryClient.ensureQueryData(apiKeysQueryOptions()),
      queryClient.ensureQueryData(webhooksQueryOptions()),
    ]);
  },
  component: ProfilePage,
});

function ProfilePage() {
  const user = useSignedInUser();
  return (
    <SignedInPage>
      <PageTitle title={pages['/profile'].title} />
      {/* The shell's width, its forms no wider than they read well. */}
      <Box maw={720}>
        <ProfileSettings user={user} />
      </Box>
    </SignedInPage>
  );
}
