import { Anchor, List, Text } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, Link } from '@tanstack/react-router';
import { InfoPage, InfoSection } from '../components/InfoPage';
import { loadPublishedCopy } from '../content/loadPublishedCopy';
import { PublishedCopyOr } from '../content/PublishedCopy';
import { linkLimitsQueryOptions, useLinkLimitTexts } from '../links/limitsApi';

export const Route = createFileRoute('/terms')({
  // The allowances in force are named on the page: asked before it shows (a prefetch never fails). The
  // copy published in the console, if any, is the page instead.
  loader: ({ context: { queryClient } }) =>
    Promise.all([
      queryClient.prefetchQuery(linkLimitsQueryOptions()),
      loadPublishedCopy(queryClient, 'terms'),
    ]),
  component: TermsCopy,
});

function TermsCopy() {
  return <PublishedCopyOr page="terms" builtIn={<TermsPage />} />;
}

function TermsPage() {
  return (
    <InfoPage title={pages['/terms'].title} intro={pages['/terms'].description}>
      <InfoSection title="Acceptable use">
        <Text>Do not use short links to hide or spread:</Text>
        <List spacing="xs">
          <List.Item>malware, phishing or other deception;</List.Item>
          <List.Item>spam or unsolicited bulk messages;</List.Item>
          <List.Item>
            content that is illegal where this site is run, or that infringes others' rights.
          </List.Item>
        </List>
        <Text>Links that break these rules may be disabled and their accounts suspended without notice.</Text>
      </InfoSection>
      <InfoSection title="Plans and payment">
        <Text>
          Free accounts can hold <AllowanceText plan="free" />. Pro costs $2 a month or $20 a year and allows{' '}
          <AllowanceText plan="pro" />; it renews until you cancel, and cancelling keeps your existing links
          working. Premium short codes are one-time purchases for Pro users and stay yours after a
          subscription ends.
        </Text>
      </InfoSection>
      <InfoSection title="Demo links">
        <Text>
          Links made in the demo without an account are limited in number and stop working after 7 days unless
          you sign up, which moves them into your account.
        </Text>
      </InfoSection>
      <InfoSection title="No warranty">
        <Text>
          The service is provided as is. The operator of this site works to keep links redirecting and
          statistics accurate, but cannot guarantee uninterrupted service and is not liable for losses caused
          by an outage.
        </Text>
      </InfoSection>
      <InfoSection title="Changes">
        <Text>
          These terms may change; the version on this page applies. Questions:{' '}
          <Anchor component={Link} to="/contact">
            contact
          </Anchor>
          .
        </Text>
      </InfoSection>
    </InfoPage>
  );
}

/** One plan's allowance in force, in the words every page uses. */
function AllowanceText({ plan }: { plan: 'free' | 'pro' }) {
  return <>{useLinkLimitTexts()[plan]}</>;
}
