import { Accordion, Anchor, Text } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { livenessQueryOptions, readinessQueryOptions } from '../api/health';
import { InfoPage, InfoSection } from '../components/InfoPage';
import { loadPublishedCopy } from '../content/loadPublishedCopy';
import { PublishedCopyOr } from '../content/PublishedCopy';
import { SystemStatusCard } from '../landing/SystemStatusCard';
import { linkLimitsQueryOptions, useLinkLimitTexts } from '../links/limitsApi';

export const Route = createFileRoute('/help')({
  // Start the status calls while the page's code loads; the card shows them as they arrive.
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(livenessQueryOptions());
    void queryClient.prefetchQuery(readinessQueryOptions());
    // The allowances in force, named in an answer: waited for, so that they never change under the reader.
    // The copy published in the console, if any, is the page instead.
    return Promise.all([
      queryClient.prefetchQuery(linkLimitsQueryOptions()),
      loadPublishedCopy(queryClient, 'help'),
    ]);
  },
  component: HelpCopy,
});

function HelpCopy() {
  return <PublishedCopyOr page="help" builtIn={<HelpPage />} />;
}

const questions: { question: string; answer: ReactNode }[] = [
  {
    question: 'How do I shorten a link?',
    answer: (
      <>
        Paste it into the demo on the <Anchor href="/#demo">home page</Anchor>, or into "Create New Short
        Link" on your dashboard. An address typed without http:// or https:// gets https://.
      </>
    ),
  },
  {
    question: 'Why was my address refused?',
    answer:
      'Sniplink shortens http and https addresses on public domains or public IP addresses, up to 2,048 characters. It does not shorten its own short links, or addresses on private networks.',
  },
  {
    question: 'How many links can I make?',
    answer: <AllowanceAnswer />,
  },
  {
    question: 'What happens to the links I made in the demo?',
    answer:
      'They work for 7 days. Sign up or sign in from the same browser and they move into your account, as many as your plan allows, and keep working.',
  },
  {
    question: 'How are clicks counted?',
    answer:
      'Every time someone opens a short link, Sniplink counts it within a couple of seconds, with the device, browser, operating system, referring site and country. Bots and link previews are counted apart, so your numbers are people.',
  },
  {
    question: 'Can I choose my own short code?',
    answer:
      'Yes: type it as the custom back-half when you create a link, or edit a link: 3 to 20 letters, digits, hyphens or underscores. Sniplink tells you at once whether it is free.',
  },
  {
    question: 'How do I get my data out?',
    answer:
      'Use Export CSV on your dashboard: one row per link with its code, address, title, date and clicks.',
  },
  {
    question: 'I forgot my password.',
    answer: (
      <>
        Use{' '}
        <Anchor component={Link} to="/forgot-password">
          Forgot password
        </Anchor>
        ; the link in the e-mail works once, for an hour.
      </>
    ),
  },
];

function HelpPage() {
  return (
    <InfoPage title={pages['/help'].title} intro={pages['/help'].description}>
      <Accordion variant="separated" multiple>
        {questions.map(({ question, answer }) => (
          <Accordion.Item key={question} value={question}>
            <Accordion.Control>{question}</Accordion.Control>
            <Accordion.Panel>
              <Text>{answer}</Text>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      <InfoSection title="Is it working?">
        <Text>The state of this site right now:</Text>
        <SystemStatusCard />
      </InfoSection>
      <Text>
        Still stuck?{' '}
        <Anchor component={Link} to="/contact">
          Contact us
        </Anchor>
        .
      </Text>
    </InfoPage>
  );
}

/** The allowances in force, in the words every page uses. */
function AllowanceAnswer() {
  const limits = useLinkLimitTexts();
  return (
    <>
      Free accounts hold {limits.free}: deleting a link frees its place. Pro creates {limits.pro}, for
      $2/month or $20/year.
    </>
  );
}
