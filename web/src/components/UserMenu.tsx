import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { signOutHref } from '../accounts/loginLinks';
import { useInAppClick } from './inAppLink';
import { displayNameOf, initialOf } from './userDisplay';

export function UserAvatar({ user, size = 36 }: { user: User; size?: number }) {
  return (
    <Avatar src={user.profileImageUrl} alt="" size={size} color="blue" radius="xl">
      {initialOf(user)}
    </Avatar>
  );
}

/** The signed-in user's avatar menu. */
export function UserMenu({ user }: { user: User }) {
  const toProfile = useInAppClick('/profile');
  const toAdmin = useInAppClick('/admin');
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
        {user.isAdmin && (
          <Menu.Item component="a" href="/admin" onClick={toAdmin}>
            Admin Panel
          </Menu.Item>
        )}
        {/* A navigation, not a data call: the server ends the session and redirects to "/". */}
        <Menu.Item component="a" href={signOutHref} color="red">
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
