import { Anchor, Burger, Container, Group, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { currentUserQueryOptions } from '../accounts/api';
import { brandName } from './PageTitle';
import { SignedOutLinks } from './SignedOutLinks';

// Split off: a visitor of the landing page downloads neither the signed-in navigation nor the mobile drawer.
const SignedInBar = lazy(() => import('./UserMenu').then((module) => ({ default: module.SignedInBar })));
const MobileMenu = lazy(() => import('./MobileMenu').then((module) => ({ default: module.MobileMenu })));

/**
 * The header's content (the shell's header is the page's one banner): wide screens show the navigation
 * inline, narrow ones behind a menu toggle.
 */
export function TopBar() {
  const { data: user, isPending } = useQuery(currentUserQueryOptions());
  const [menuOpen, menu] = useDisclosure(false);
  // Mounted on the first tap and kept: closing the drawer still animates.
  const [menuUsed, setMenuUsed] = useState(false);

  return (
    <>
      <Container size="lg" h="100%">
        <Group justify="space-between" wrap="nowrap" h="100%" gap="lg">
          <Anchor component={Link} to="/" c="inherit" fw={700} fz="xl" underline="never">
            {brandName}
          </Anchor>
          {isPending ? (
            <Loader size="sm" aria-label="Loading your account" />
          ) : (
            <>
              {user ? (
                <Suspense fallback={<Loader size="sm" aria-label="Loading your account" />}>
                  <SignedInBar user={user} />
                </Suspense>
              ) : (
                <Group gap="lg" visibleFrom="sm" wrap="nowrap" component="nav" aria-label="Main">
                  <SignedOutLinks />
                </Group>
              )}
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
    </>
  );
}
