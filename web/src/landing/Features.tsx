import { Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';

const problems = [
  {
    title: 'Long links look untrustworthy',
    text: 'A 200-character address with tracking codes gets cut off in messages and scares people away.',
  },
  {
    title: 'You cannot tell what works',
    text: 'Flyer, newsletter or Instagram bio: without click counts, every channel looks the same.',
  },
  {
    title: 'Enterprise tools cost too much',
    text: 'Link platforms built for marketing departments charge more per month than a small business earns from a post.',
  },
];

const benefits = [
  {
    title: 'Track links',
    text: 'Every short link counts its clicks, and shows them within seconds.',
  },
  {
    title: 'See click numbers',
    text: 'Clicks by device, browser, referrer and country, per link and per day.',
  },
  {
    title: 'Share anywhere',
    text: 'Short links for messages, print and social profiles, plus a QR code for each.',
  },
  {
    title: 'Export data',
    text: 'Download every link and its clicks as a CSV file at any time.',
  },
  {
    title: 'Works on your phone',
    text: 'Create and check links from any device, no app to install.',
  },
  {
    title: 'Private by design',
    text: 'Visitor IP addresses are never stored: a click keeps only its country.',
  },
];

/** The problems small link sharers have, then what Sniplink does about them (anchor #features). */
export function Features() {
  return (
    <>
      <Container component="section" size="lg" py={56} aria-labelledby="problems-title">
        <Stack gap="xl">
          <Title order={2} id="problems-title" ta="center">
            Sharing links should not be guesswork
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {problems.map((problem) => (
              <Card key={problem.title} withBorder radius="md" padding="lg">
                <Title order={3} size="h4" mb="xs">
                  {problem.title}
                </Title>
                <Text c="dimmed">{problem.text}</Text>
              </Card>
            ))}
          </SimpleGrid>
        </Stack>
      </Container>
      <Container component="section" id="features" size="lg" py={56} aria-labelledby="features-title">
        <Stack gap="xl">
          <Title order={2} id="features-title" ta="center">
            Everything a small team needs, nothing it does not
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {benefits.map((benefit) => (
              <Stack key={benefit.title} gap={4}>
                <Title order={3} size="h4">
                  {benefit.title}
                </Title>
                <Text c="dimmed">{benefit.text}</Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Stack>
      </Container>
    </>
  );
}

const steps = [
  {
    title: 'Paste your link',
    text: 'Drop in any long http or https address and get a short link back at once.',
  },
  { title: 'Share it', text: 'Put it in a post, a text message, an e-mail or on a printed QR code.' },
  { title: 'See what works', text: 'Watch the clicks come in, and keep doing what brings people to you.' },
];

export function HowItWorks() {
  return (
    <Container component="section" size="lg" py={56} aria-labelledby="steps-title">
      <Stack gap="xl">
        <Title order={2} id="steps-title" ta="center">
          Three steps, about a minute
        </Title>
        <SimpleGrid
          component="ol"
          cols={{ base: 1, sm: 3 }}
          spacing="lg"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
        >
          {steps.map((step, index) => (
            <Group component="li" key={step.title} align="flex-start" wrap="nowrap" gap="md">
              <ThemeIcon radius="xl" size={36} aria-hidden>
                {index + 1}
              </ThemeIcon>
              <Stack gap={4}>
                <Title order={3} size="h4">
                  {step.title}
                </Title>
                <Text c="dimmed">{step.text}</Text>
              </Stack>
            </Group>
          ))}
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
