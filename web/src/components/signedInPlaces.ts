import type { User } from '@sniplink/contracts';

/** A place of the signed-in header's navigation: its address, and whether a location is in it. */
export interface SignedInPlace {
  label: string;
  href: string;
  isCurrent(pathname: string, search: Readonly<Record<string, unknown>>): boolean;
}

// Signed in, "/" is the dashboard too; the Support Center is the dashboard's `support=open` place.
const onDashboard = (pathname: string) => pathname === '/home' || pathname === '/';
const supportOpen = (search: Readonly<Record<string, unknown>>) => search.support === 'open';

const everyones: readonly SignedInPlace[] = [
  {
    label: 'Dashboard',
    href: '/home',
    isCurrent: (pathname, search) => onDashboard(pathname) && !supportOpen(search),
  },
  {
    label: 'Marketplace',
    href: '/marketplace',
    isCurrent: (pathname) => pathname === '/marketplace' || pathname.startsWith('/premium/'),
  },
  {
    label: 'Support',
    href: '/home?support=open',
    isCurrent: (pathname, search) => onDashboard(pathname) && supportOpen(search),
  },
];

const admins: SignedInPlace = {
  label: 'Admin',
  href: '/admin',
  isCurrent: (pathname) => pathname === '/admin',
};

/** The places a signed-in user can go from the header, in their order; Admin only for admins. */
export const signedInPlacesFor = (user: Pick<User, 'isAdmin'>): readonly SignedInPlace[] =>
  user.isAdmin ? [...everyones, admins] : everyones;
