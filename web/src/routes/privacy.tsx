import { Anchor, List, Text } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, Link } from '@tanstack/react-router';
import { InfoPage, InfoSection } from '../components/InfoPage';
import { loadPublishedCopy } from '../content/loadPublishedCopy';
import { PublishedCopyOr } from '../content/PublishedCopy';

export const Route = createFileRoute('/privacy')({
  // The copy published in the console, if any, is the page: asked before it shows.
  loader: ({ context: { queryClient } }) => loadPublishedCopy(queryClient, 'privacy'),
  component: PrivacyCopy,
});

function PrivacyCopy() {
  return <PublishedCopyOr page="privacy" builtIn={<PrivacyPage />} />;
}

function PrivacyPage() {
  return (
    <InfoPage title={pages['/privacy'].title} intro={pages['/privacy'].description}>
      <InfoSection title="People who open a short link">
        <Text>Each click is recorded with:</Text>
        <List spacing="xs">
          <List.Item>
            the country of the visitor's IP address, looked up on this server from an offline database;
          </List.Item>
          <List.Item>
            the device type, browser and operating system, read from the browser's user agent;
          </List.Item>
          <List.Item>the referring website's host name only (no path, no query), or "direct";</List.Item>
          <List.Item>the time of the click.</List.Item>
        </List>
        <Text>
          <strong>The IP address itself is never stored</strong>, and no cookie is set on people who open a
          link. Automated visitors (bots) are counted apart.
        </Text>
      </InfoSection>
      <InfoSection title="Account holders">
        <Text>
          Your account holds your e-mail address, name (optional), profile picture address when you sign in
          with an identity provider, plan, and your links. Passwords are stored only as salted argon2id
          hashes. Your name, e-mail and picture address are encrypted with a key of your own; erasing your
          account deletes that key, which leaves nothing readable behind.
        </Text>
      </InfoSection>
      <InfoSection title="Cookies">
        <List spacing="xs">
          <List.Item>
            <strong>sid</strong>: your session while you are signed in. HttpOnly, sent only to this site; it
            ends when you log out.
          </List.Item>
          <List.Item>
            <strong>visitor</strong>: set when you try the demo without an account, so that your demo links
            stay yours (30 days). Signing up moves those links into your account.
          </List.Item>
        </List>
        <Text>There are no advertising, analytics or third-party cookies, and no third-party scripts.</Text>
      </InfoSection>
      <InfoSection title="How long data is kept">
        <Text>
          Demo links nobody claims stop working after 7 days. Account data stays until you ask for your
          account to be erased. Click statistics belong to the link's owner and can be exported as CSV at any
          time.
        </Text>
      </InfoSection>
      <InfoSection title="Questions and erasure">
        <Text>
          To see or erase your data,{' '}
          <Anchor component={Link} to="/contact">
            contact the operator of this site
          </Anchor>
          .
        </Text>
      </InfoSection>
    </InfoPage>
  );
}
