import { Anchor, Button } from '@mantine/core';
import { createAccountHref, signInHref } from '../accounts/loginLinks';
import { useInAppClick } from './inAppLink';

/** The landing page's sections; from another page these load "/" and scroll there. */
const sectionLinks = [
  { href: '/#features', label: 'Features' },
  { href: '/#pricing', label: 'Pricing' },
  { href: '/#demo', label: 'Demo' },
] as const;

/** The signed-out links: inline in the top bar, stacked in the mobile menu. */
export function SignedOutLinks({
  stacked = false,
  onNavigate,
}: {
  stacked?: boolean;
  onNavigate?: () => void;
}) {
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
      <Button component="a" href={signInHref} variant="default" fullWidth={stacked}>
        Login
      </Button>
      <Button component="a" href={createAccountHref} fullWidth={stacked}>
        Start Free
      </Button>
    </>
  );
}
