import { Badge, Button, Card, Container, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { DemoLink } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CopyUrlButton } from '../components/CopyButton';
import { toast } from '../components/toast';
import { demoInputProblem, demoLinksQueryOptions, demoShortenFailure, useShortenDemoUrl } from './demo';

const copiedMessage = 'Short URL copied to clipboard';
/** Spec section 9: the result lists at most 3 of the visitor's other demo links. */
const shownEarlierLinks = 3;

/** "Try Sniplink Free": a visitor shortens a URL without an account (spec section 2, landing page). */
export function DemoSection() {
  const [url, setUrl] = useState('');
  const [result, setResult] = useState<DemoLink>();
  const shorten = useShortenDemoUrl();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = demoInputProblem(url);
    if (problem) return toast.error(problem.title, problem.message);
    shorten.mutate(url.trim(), {
      onSuccess: setResult,
      onError: (error) => {
        const failure = demoShortenFailure(error);
        toast.error(failure.title, failure.message);
      },
    });
  };
  const clear = () => {
    setUrl('');
    setResult(undefined);
    shorten.reset();
  };

  return (
    <Container component="section" id="demo" size="sm" py={64} aria-labelledby="demo-title">
      <Stack gap="lg">
        <Stack gap="xs" ta="center">
          <Title order={2} id="demo-title">
            Try Sniplink Free
          </Title>
          <Text c="dimmed">
            Paste a long link and get a short one you can share right away. No account needed.
          </Text>
        </Stack>
        <Card withBorder radius="md" padding="lg" shadow="sm">
          <form onSubmit={submit} noValidate>
            <Group align="flex-end" gap="sm">
              <TextInput
                type="url"
                label="Long URL"
                placeholder="https://example.com/a/very/long/link"
                value={url}
                onChange={(event) => setUrl(event.currentTarget.value)}
                style={{ flex: '1 1 260px' }}
              />
              <Group gap="sm">
                <Button type="submit" disabled={shorten.isPending}>
                  {shorten.isPending ? 'Shortening...' : 'Shorten'}
                </Button>
                {result && (
                  <Button variant="default" onClick={clear}>
                    Clear
                  </Button>
                )}
              </Group>
            </Group>
          </form>
          {result && <DemoResult link={result} />}
        </Card>
      </Stack>
    </Container>
  );
}

function DemoResult({ link }: { link: DemoLink }) {
  const { data: demoLinks = [] } = useQuery(demoLinksQueryOptions());
  const earlier = demoLinks.filter((other) => other.id !== link.id);
  const hidden = earlier.length - shownEarlierLinks;

  return (
    <Stack gap="md" mt="lg" aria-live="polite">
      <Card bg="var(--mantine-color-blue-light)" radius="md" padding="md">
        <Text size="sm" c="dimmed">
          Your short link
        </Text>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text fw={700} fz="lg" style={{ wordBreak: 'break-all' }} data-testid="demo-short-url">
            {link.shortUrl}
          </Text>
          <CopyUrlButton url={link.shortUrl} copiedMessage={copiedMessage} />
        </Group>
        <Text size="sm" c="dimmed" truncate>
          {link.originalUrl}
        </Text>
        <Badge mt="xs" color="green" variant="light">
          Analytics ready
        </Badge>
      </Card>
      {earlier.length > 0 && (
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Your other demo links
          </Text>
          {earlier.slice(0, shownEarlierLinks).map((other) => (
            <Group key={other.id} justify="space-between" wrap="nowrap" gap="sm">
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {other.shortUrl}
              </Text>
              <CopyUrlButton url={other.shortUrl} copiedMessage={copiedMessage} />
            </Group>
          ))}
          {hidden > 0 && (
            <Text size="sm" c="dimmed">
              +{hidden} more links will be saved to your account
            </Text>
          )}
        </Stack>
      )}
      <Stack gap={4} align="center" ta="center">
        <Text fw={600}>
          See who clicks, from where and on what device: keep these links in a free account.
        </Text>
        <Button component="a" href="/api/login" size="md">
          Start Free Account
        </Button>
        <Text size="sm" c="dimmed">
          Already have an account?{' '}
          <a href="/api/login" style={{ color: 'var(--mantine-color-anchor)' }}>
            Sign in
          </a>
        </Text>
      </Stack>
    </Stack>
  );
}
