import { Anchor, List, Text } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, Link } from '@tanstack/react-router';
import { InfoPage, InfoSection } from '../components/InfoPage';
import { loadPublishedCopy } from '../content/loadPublishedCopy';
import { PublishedCopyOr } from '../content/PublishedCopy';
import { linkLimitsQueryOptions, useLinkLimitTexts } from '../links/limitsApi';

export const Route = createFileRoute('/about')({
  // The allowances in force are named on the page: asked before it shows (a prefetch never fails). The
  // copy published in the console, if any, is the page instead.
  loader: ({ context: { queryClient } }) =>
    Promise.all([
      queryClient.prefetchQuery(linkLimitsQueryOptions()),
      loadPublishedCopy(queryClient, 'about'),
    ]),
  component: AboutCopy,
});

function AboutCopy() {
  return <PublishedCopyOr page="about" builtIn={<AboutPage />} />;
}

function AboutPage() {
  return (
    <InfoPage title={pages['/about'].title} intro={pages['/about'].description}>
      <InfoSection title="Who it is for">
        <Text>
          Local businesses, creators and small organisations that share links in posts, newsletters, messages
          and print, and want to know which of them people actually use, without paying for a marketing suite.
        </Text>
      </InfoSection>
      <InfoSection title="What you get">
        <List spacing="xs">
          <List.Item>
            Short links of the form this-site/s/code, with your own code if you like (3-20 characters).
          </List.Item>
          <List.Item>Click counts by day, device, browser, operating system, referrer and country.</List.Item>
          <List.Item>A QR code for every link, and a CSV export of all your links and clicks.</List.Item>
          <List.Item>
            <AllowanceLine /> <Anchor href="/#pricing">See pricing</Anchor>.
          </List.Item>
        </List>
      </InfoSection>
      <InfoSection title="Self-hostable">
        <Text>
          Sniplink is a single Node.js application with a PostgreSQL database. Anyone can run their own copy
          on their own server and domain: it starts with one command, and keeps working with no outside
          service. Whoever runs this site is its operator and decides its plans and rules.
        </Text>
      </InfoSection>
      <InfoSection title="Privacy first">
        <Text>
          Visitors who open a short link are counted, not tracked: their IP address is never stored, only the
          country it belongs to. Read the{' '}
          <Anchor component={Link} to="/privacy">
            privacy notice
          </Anchor>{' '}
          for the details.
        </Text>
      </InfoSection>
    </InfoPage>
  );
}

/** The allowances in force, in the words every page uses. */
function AllowanceLine() {
  const limits = useLinkLimitTexts();
  return (
    <>
      Free: {limits.free}. Pro: {limits.pro} for $2/month or $20/year.
    </>
  );
}
