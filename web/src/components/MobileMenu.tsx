import { Box, Button, Drawer, Group, Stack, Text } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { signOutHref } from '../accounts/loginLinks';
import { useInAppClick } from './inAppLink';
import { brandName } from './PageTitle';
import { SignedInNav } from './SignedInNav';
import { SignedOutLinks } from './SignedOutLinks';
import { UserAvatar } from './UserMenu';
import { displayNameOf } from './userDisplay';

/**
 * The narrow screens' menu. A chunk of its own, loaded on the first tap of the menu toggle: the drawer
 * and the avatar are not part of what the landing page must download.
 */
export function MobileMenu({
  user,
  opened,
  onClose,
}: {
  user: User | null | undefined;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="xs" title={brandName}>
      <Stack component="nav" aria-label="Main" gap="md">
        {user ? (
          <SignedInMenuLinks user={user} onNavigate={onClose} />
        ) : (
          <SignedOutLinks stacked onNavigate={onClose} />
        )}
      </Stack>
    </Drawer>
  );
}

function SignedInMenuLinks({ user, onNavigate }: { user: User; onNavigate: () => void }) {
  const toProfile = useInAppClick('/profile', onNavigate);
  return (
    <>
      <Group wrap="nowrap">
        <UserAvatar user={user} />
        <Box miw={0}>
          <Text fw={600} truncate>
            {displayNameOf(user)}
          </Text>
          {user.email && (
            <Text size="sm" c="dimmed" truncate>
              {user.email}
            </Text>
          )}
        </Box>
      </Group>
      <SignedInNav user={user} stacked onNavigate={onNavigate} />
      <Button component="a" href="/profile" variant="default" onClick={toProfile} fullWidth>
        Profile Settings
      </Button>
      <Button component="a" href={signOutHref} color="red" variant="light" fullWidth>
        Logout
      </Button>
    </>
  );
}
