import { Center, Loader } from '@mantine/core';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { requireSignedInUser, useLogInAgainWhenSignedOut } from '../accounts/useSignedInUser';

/**
 * The pages only a signed-in user sees (/home, /profile, /onboarding): no path of its own. A visitor who
 * is not signed in is sent to the login before any of them renders; a signed-in one, whose user is
 * usually cached, sees the page at once.
 */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context: { queryClient }, location, preload }) => ({
    user: await requireSignedInUser(queryClient, location.pathname, preload),
  }),
  component: AuthenticatedLayout,
});

function AuthenticatedLayout() {
  const signedOut = useLogInAgainWhenSignedOut();
  if (signedOut) {
    return (
      <Center py="xl">
        <Loader aria-label="Logging in again" />
      </Center>
    );
  }
  return <Outlet />;
}
