import { Anchor, List, Text } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, Link } from '@tanstack/react-router';
import { InfoPage, InfoSection } from '../components/InfoPage';
import { loadPublishedCopy } from '../content/loadPublishedCopy';
import { PublishedCopyOr } from '../content/PublishedCopy';

export const Route = createFileRoute('/contact')({
  // The copy published in the console, if any, is the page: asked before it shows.
  loader: ({ context: { queryClient } }) => loadPublishedCopy(queryClient, 'contact'),
  component: ContactCopy,
});

function ContactCopy() {
  return <PublishedCopyOr page="contact" builtIn={<ContactPage />} />;
}

function ContactPage() {
  return (
    <InfoPage title={pages['/contact'].title} intro={pages['/contact'].description}>
      <InfoSection title="Signed-in users">
        <Text>
          Open the Support Center from your dashboard to start a ticket. You can follow the conversation
          there, and replies from the operator are marked "Support Team". Choose the priority "urgent" for a
          link that is being abused.
        </Text>
      </InfoSection>
      <InfoSection title="Everyone else">
        <List spacing="xs">
          <List.Item>
            Locked out? Use{' '}
            <Anchor component={Link} to="/forgot-password">
              Forgot password
            </Anchor>{' '}
            to get a reset link by e-mail.
          </List.Item>
          <List.Item>
            Want to report a short link that leads somewhere harmful? Create a free account (one minute) and
            open a ticket with the link's address.
          </List.Item>
          <List.Item>
            Most questions about plans, limits and statistics are answered on the{' '}
            <Anchor component={Link} to="/help">
              help page
            </Anchor>
            .
          </List.Item>
        </List>
      </InfoSection>
    </InfoPage>
  );
}
