import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { signOutHref } from '../accounts/loginLinks';
import { useInAppClick } from './inAppLink';
import { SignedInNav } from './SignedInNav';
import { displayNameOf, initialOf } from './userDisplay';

export function UserAvatar({ user, size = 36 }: { user: User; size?: number }) {
  return (
    <Avatar src={user.profileImageUrl} alt="" size={size} color="blue" radius="xl">
      {initialOf(user)}
    </Avatar>
  );
}

/**
 * The signed-in header's right-hand side on wide screens: the navigation, then the avatar menu. Narrow
 * screens show both in the mobile menu.
 */
export function SignedInBar({ user }: { user: User }) {
  return (
    <Group gap="lg" wrap="nowrap" visibleFrom="sm" style={{ flex: 1 }} justify="space-between">
      <Box component="nav" aria-label="Main">
        <SignedInNav user={user} />
      </Box>
      <UserMenu user={user} />
    </Group>
  );
}

/** The signed-in user's avatar menu: who is signed in, the profile and logout. */
function UserMenu({ user }: { user: User }) {
  const toProfile = useInAppClick('/profile');
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu for ${displayNameOf(user)}`}>
          <UserAvatar user={user} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {displayNameOf(user)}
          </Text>
          {user.email && (
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          )}
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component="a" href="/profile" onClick={toProfile}>
          Profile Settings
        </Menu.Item>
        {/* A navigation, not a data call: the server ends the session and redirects to "/". */}
        <Menu.Item component="a" href={signOutHref} color="red">
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
