import { Anchor, Box, Burger, Container, Group, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { currentUserQueryOptions } from '../accounts/api';
import { brandName } from './PageTitle';
import { SignedOutLinks } from './SignedOutLinks';

// Split off: a visitor of the landing page downloads neither the avatar menu nor the mobile drawer.
const UserMenu = lazy(() => import('./UserMenu').then((module) => ({ default: module.UserMenu })));
const MobileMenu = lazy(() => import('./MobileMenu').then((module) => ({ default: module.MobileMenu })));

/** Top navigation: wide screens show it inline, narrow ones behind a menu toggle. */
export function TopBar() {
  const { data: user, isPending } = useQuery(currentUserQueryOptions());
  const [menuOpen, menu] = useDisclosure(false);
  // Mounted on the first tap and kept: closing the drawer still animates.
  const [menuUsed, setMenuUsed] = useState(false);

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
                {user ? (
                  <Suspense fallback={<Loader size="sm" aria-label="Loading your account" />}>
                    <UserMenu user={user} />
                  </Suspense>
                ) : (
                  <SignedOutLinks />
                )}
              </Group>
              <Burger
                hiddenFrom="sm"
                opened={menuOpen}
                onClick={() => {
                  setMenuUsed(true);
                  menu.toggle();
                }}
                aria-label={menuOpen ? 'Close menu' : 'Open menu'}
                aria-expanded={menuOpen}
              />
            </>
          )}
        </Group>
      </Container>
      {menuUsed && (
        <Suspense fallback={null}>
          <MobileMenu user={user} opened={menuOpen} onClose={menu.close} />
        </Suspense>
      )}
    </Box>
  );
}
