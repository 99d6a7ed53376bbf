import { Anchor, Box, Burger, Button, Container, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { User } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { currentUserQueryOptions } from '../api/auth';
import { useInAppClick } from './inAppLink';
import { brandName } from './PageTitle';
import { UserAvatar, UserMenu } from './UserMenu';
import { displayNameOf } from './userDisplay';

/** The landing page's sections; from another page these load "/" and scroll there. */
const sectionLinks = [
  { href: '/#features', label: 'Features' },
  { href: '/#pricing', label: 'Pricing' },
  { href: '/#demo', label: 'Demo' },
] as const;

/** Top navigation (spec section 2): wide screens show it inline, narrow ones behind a menu toggle. */
export function TopBar() {
  const { data: user, isPending } = useQuery(currentUserQueryOptions());
  const [menuOpen, menu] = useDisclosure(false);

  return (
    <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="lg">
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" c="inherit" fw={700} fz="xl" underline="never">
            {brandName}
          </Anchor>
          {isPending ? (
            <Loader size="sm" aria-label="Loading your account" />
          ) : (
            <>
              <Group gap="lg" visibleFrom="sm" wrap="nowrap" component="nav" aria-label="Main">
                {user ? <UserMenu user={user} /> : <SignedOutLinks />}
              </Group>
              <Burger
                hiddenFrom="sm"
                opened={menuOpen}
                onClick={menu.toggle}
                aria-label={menuOpen ? 'Close menu' : 'Open menu'}
                aria-expanded={menuOpen}
              />
            </>
          )}
        </Group>
      </Container>
      <Drawer opened={menuOpen} onClose={menu.close} position="right" size="xs" title={brandName}>
        <Stack component="nav" aria-label="Main" gap="md">
          {user ? (
            <SignedInMenuLinks user={user} onNavigate={menu.close} />
          ) : (
            <SignedOutLinks stacked onNavigate={menu.close} />
          )}
        </Stack>
      </Drawer>
    </Box>
  );
}

function SignedOutLinks({ stacked = false, onNavigate }: { stacked?: boolean; onNavigate?: () => void }) {
  const toMarketplace = useInAppClick('/marketplace', onNavigate);
  return (
    <>
      {sectionLinks.map(({ href, label }) => (
        <Anchor key={href} href={href} c="inherit" fw={500} onClick={onNavigate}>
          {label}
        </Anchor>
      ))}
      <Button component="a" href="/marketplace" variant="light" onClick={toMarketplace} fullWidth={stacked}>
        Premium Slugs
      </Button>
      {/* Navigations, not data calls: /api/login goes to the sign-in page or the OpenID provider. */}
      <Button component="a" href="/api/login" variant="default" fullWidth={stacked}>
        Login
      </Button>
      <Button component="a" href="/api/login" fullWidth={stacked}>
        Start Free
      </Button>
    </>
  );
}

function SignedInMenuLinks({ user, onNavigate }: { user: User; onNavigate: () => void }) {
  const toProfile = useInAppClick('/profile', onNavigate);
  const toAdmin = useInAppClick('/admin', onNavigate);
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
      <Button component="a" href="/profile" variant="default" onClick={toProfile} fullWidth>
        Profile Settings
      </Button>
      {user.isAdmin && (
        <Button component="a" href="/admin" variant="default" onClick={toAdmin} fullWidth>
          Admin Panel
        </Button>
      )}
      <Button component="a" href="/api/logout" color="red" variant="light" fullWidth>
        Logout
      </Button>
    </>
  );
}
