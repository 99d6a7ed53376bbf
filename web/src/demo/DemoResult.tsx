import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { DemoLink } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { createAccountHref, signInHref } from '../accounts/loginLinks';
import { CopyUrlButton } from '../components/CopyButton';
import { demoLinksQueryOptions } from './api';

const copiedMessage = 'Short URL copied to clipboard';
/** The result lists at most 3 of the visitor's other demo links. */
const shownEarlierLinks = 3;

/** The demo's short link, the visitor's earlier ones and the sign-up call to action. */
export function DemoResult({ link }: { link: DemoLink }) {
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
          <Text fw={700} fz={{ base: 'md', sm: 'lg' }} style={wrapAnywhere} data-testid="demo-short-url">
            <ShortUrl url={link.shortUrl} />
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
              <Text size="sm" style={wrapAnywhere}>
                <ShortUrl url={other.shortUrl} />
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
        <Button component="a" href={createAccountHref} size="md">
          Start Free Account
        </Button>
        <Text size="sm" c="dimmed">
          Already have an account?{' '}
          <a href={signInHref} style={{ color: 'var(--mantine-color-anchor)' }}>
            Sign in
          </a>
        </Text>
      </Stack>
    </Stack>
  );
}

/** A URL breaks where it must on a narrow screen, but before the code rather than inside it if it can. */
const wrapAnywhere = { overflowWrap: 'anywhere' } as const;

function ShortUrl({ url }: { url: string }) {
  const path = url.lastIndexOf('/s/');
  if (path < 0) return url;
  const code = path + '/s/'.length;
  return (
    <>
      {url.slice(0, code)}
      <wbr />
      {url.slice(code)}
    </>
  );
}
