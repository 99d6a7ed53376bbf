import { Button, Group, Stack } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { useRouterState } from '@tanstack/react-router';
import { useInAppClick } from './inAppLink';
import { type SignedInPlace, signedInPlacesFor } from './signedInPlaces';

/**
 * The signed-in header's places (Dashboard, Marketplace, Support, Admin for admins), the current one
 * highlighted and marked `aria-current="page"`: inline on wide screens, stacked in the mobile menu.
 */
export function SignedInNav({
  user,
  stacked = false,
  onNavigate,
}: {
  user: User;
  stacked?: boolean;
  onNavigate?: () => void;
}) {
  const location = useRouterState({ select: (state) => state.location });
  const places = signedInPlacesFor(user).map((place) => (
    <PlaceLink
      key={place.href}
      place={place}
      current={place.isCurrent(location.pathname, location.search)}
      stacked={stacked}
      onNavigate={onNavigate}
    />
  ));
  return stacked ? (
    <Stack gap="xs">{places}</Stack>
  ) : (
    <Group gap={4} wrap="nowrap">
      {places}
    </Group>
  );
}

function PlaceLink({
  place,
  current,
  stacked,
  onNavigate,
}: {
  place: SignedInPlace;
  current: boolean;
  stacked: boolean;
  onNavigate?: () => void;
}) {
  const go = useInAppClick(place.href, onNavigate);
  return (
    <Button
      component="a"
      href={place.href}
      onClick={go}
      variant={current ? 'light' : 'subtle'}
      color={current ? undefined : 'dark'}
      aria-current={current ? 'page' : undefined}
      justify={stacked ? 'flex-start' : undefined}
      fullWidth={stacked}
    >
      {place.label}
    </Button>
  );
}
