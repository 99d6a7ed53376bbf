import { Anchor, Badge, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import type { OwnedPremiumSlug } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { toast } from '../components/toast';
import { myPremiumSlugsQueryOptions, useSetPremiumSlugUrl } from './api';

/** Where a premium slug answers: `/s/{slug}` on this site. */
const premiumShortUrl = (slug: string) => `${window.location.origin}/s/${slug}`;

/**
 * The dashboard's "My Premium Slugs" card: the slugs the user owns, each with its
 * target (or "No URL assigned") and a Manage button opening the dialog that sets or clears it. Shown only
 * to owners: a user with no slug sees nothing here (the marketplace sells them).
 */
export function MyPremiumSlugsCard() {
  const owned = useQuery(myPremiumSlugsQueryOptions());
  const [managing, setManaging] = useState<OwnedPremiumSlug | null>(null);
  if (!owned.data || owned.data.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg" aria-labelledby="my-premium-slugs">
      <Title order={3} size="h4" id="my-premium-slugs" mb="sm">
        My Premium Slugs
      </Title>
      <Stack gap="sm">
        {owned.data.map((slug) => (
          <Group key={slug.id} justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs">
                <Text fw={600}>/s/{slug.slug}</Text>
                <Badge variant="light" size="sm">
                  {slug.tier}
                </Badge>
              </Group>
              {slug.targetUrl ? (
                <Anchor href={slug.targetUrl} target="_blank" rel="noopener noreferrer" size="sm" truncate>
                  {slug.targetUrl}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  No URL assigned
                </Text>
              )}
            </Stack>
            <Button
              variant="light"
              size="xs"
              onClick={() => setManaging(slug)}
              aria-label={`Manage ${slug.slug}`}
            >
              Manage
            </Button>
          </Group>
        ))}
      </Stack>
      <Modal
        opened={managing !== null}
        onClose={() => setManaging(null)}
        title="Manage Premium Slug"
        centered
      >
        {managing && <ManagePremiumSlugForm slug={managing} onDone={() => setManaging(null)} />}
      </Modal>
    </Card>
  );
}

/** The Manage Premium Slug dialog's form: the target URL; saving it blank, or "Clear URL", removes it. */
function ManagePremiumSlugForm({ slug, onDone }: { slug: OwnedPremiumSlug; onDone: () => void }) {
  const [url, setUrl] = useState(slug.targetUrl ?? '');
  const setTarget = useSetPremiumSlugUrl();
  const save = (value: string | null) =>
    setTarget.mutate(
      { slug: slug.slug, url: value },
      {
        onSuccess: () => {
          toast.success('Premium Slug Updated');
          onDone();
        },
        onError: (error) =>
          toast.error(
            'Update Failed',
            error instanceof ApiError && error.field === 'url' && error.serverMessage
              ? error.serverMessage
              : 'Failed to update premium slug',
          ),
      },
    );
  return (
    <form
      aria-label="Manage premium slug"
      onSubmit={(event) => {
        event.preventDefault();
        save(url.trim() === '' ? null : url.trim());
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          <Text span fw={600}>
            {premiumShortUrl(slug.slug)}
          </Text>{' '}
          redirects to the URL below.
        </Text>
        <TextInput
          label="Target URL"
          type="url"
          placeholder="https://example.com/page"
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
        />
        <Group justify="space-between" gap="sm">
          <Button
            variant="subtle"
            color="red"
            disabled={slug.targetUrl === null}
            loading={setTarget.isPending && setTarget.variables?.url === null}
            onClick={() => save(null)}
          >
            Clear URL
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" loading={setTarget.isPending}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
