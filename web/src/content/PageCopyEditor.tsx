import {
  Accordion,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { PAGE_COPY_TITLE_MAX, type PageCopy, type PageCopyKey } from '@sniplink/contracts/content/api';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Markdown } from '../components/Markdown';
import { toast } from '../components/toast';
import {
  pageCopyQueryOptions,
  pageCopyVersionsQueryOptions,
  usePublishPageCopy,
  useSavePageCopy,
} from './api';
import { copyStats, readTimeText } from './copyStats';
import { pageCopyPath } from './pages';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const hasText = (text: string) => text.trim() !== '';

/**
 * 'Update Page Copy': a page's title and markdown, edited, previewed and published. Save Draft keeps the
 * public page as it is; Publish (offered while the draft is not the published version, with a title and
 * content) makes the draft the page's next version. Needs `loadPageCopyEditor` (or suspends for it).
 */
export function PageCopyEditor({ page }: { page: PageCopyKey }) {
  const { data: saved } = useSuspenseQuery(pageCopyQueryOptions(page));
  // The form starts from the saved draft; the editor is keyed by page where it is mounted.
  const [title, setTitle] = useState(saved.title);
  const [content, setContent] = useState(saved.content);
  const save = useSavePageCopy(page);
  const publish = usePublishPageCopy(page);
  const changed = title.trim() !== saved.title || content !== saved.content;
  const unpublished = changed || !saved.isPublished;
  const busy = save.isPending || publish.isPending;

  const saveDraft = async () => {
    try {
      await save.mutateAsync({ title, content });
      toast.success('Draft saved', `The public page shows its published version until you publish.`);
    } catch {
      toast.error('Failed to update page content');
    }
  };

  // What is in the form is what gets published: unsaved edits are saved first.
  const publishDraft = async () => {
    if (changed) {
      try {
        await save.mutateAsync({ title, content });
      } catch {
        toast.error('Failed to update page content');
        return;
      }
    }
    try {
      const published = await publish.mutateAsync();
      toast.success('Page published', `Version ${published.version} is live at ${pageCopyPath[page]}.`);
    } catch {
      toast.error('Failed to publish page content');
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Update Page Copy
          </Title>
          <Text size="sm" c="dimmed">
            {pageCopyPath[page]}
          </Text>
        </div>
        <PublishingBadge copy={saved} changed={changed} />
      </Group>
      <Tabs defaultValue="edit" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="edit">Edit</Tabs.Tab>
          <Tabs.Tab value="preview">Preview</Tabs.Tab>
          <Tabs.Tab value="publishing">Publishing Settings</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="edit" pt="md">
          <Stack gap="sm">
            <TextInput
              label="Title"
              value={title}
              maxLength={PAGE_COPY_TITLE_MAX}
              onChange={(event) => setTitle(event.currentTarget.value)}
            />
            <Textarea
              label="Content"
              description="Markdown: ## for a heading, **bold**, - for a list, [text](https://…) for a link."
              value={content}
              autosize
              minRows={12}
              maxRows={30}
              onChange={(event) => setContent(event.currentTarget.value)}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="md">
          <Paper withBorder p="lg">
            <Title order={1} mb="md">
              {title.trim() || 'Untitled'}
            </Title>
            {hasText(content) ? <Markdown source={content} /> : <Text c="dimmed">No content yet.</Text>}
          </Paper>
        </Tabs.Panel>
        <Tabs.Panel value="publishing" pt="md">
          <PublishingSettings page={page} copy={saved} />
        </Tabs.Panel>
      </Tabs>
      <CopyStatistics content={content} />
      <Group justify="flex-end">
        <Button variant="default" onClick={saveDraft} loading={save.isPending} disabled={busy || !changed}>
          Save Draft
        </Button>
        {unpublished && (
          <Button
            onClick={publishDraft}
            loading={publish.isPending}
            disabled={busy || !hasText(title) || !hasText(content)}
          >
            Publish
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function PublishingBadge({ copy, changed }: { copy: PageCopy; changed: boolean }) {
  if (changed)
    return (
      <Badge color="yellow" variant="dot">
        Unsaved changes
      </Badge>
    );
  if (copy.isPublished)
    return (
      <Badge color="green" variant="dot">
        Published
      </Badge>
    );
  return (
    <Badge color="gray" variant="dot">
      Draft
    </Badge>
  );
}

/** Words, characters and read time of what is in the editor. */
function CopyStatistics({ content }: { content: string }) {
  const stats = copyStats(content);
  const number = new Intl.NumberFormat();
  return (
    <Group gap="lg" aria-label="Statistics">
      <Text size="sm" c="dimmed">
        {number.format(stats.words)} words
      </Text>
      <Text size="sm" c="dimmed">
        {number.format(stats.characters)} characters
      </Text>
      <Text size="sm" c="dimmed">
        {readTimeText(stats.readMinutes)}
      </Text>
    </Group>
  );
}

/** Where the page stands, and every version published, each readable as it was. */
function PublishingSettings({ page, copy }: { page: PageCopyKey; copy: PageCopy }) {
  const { data: versions } = useSuspenseQuery(pageCopyVersionsQueryOptions(page));
  return (
    <Stack gap="sm">
      <Text>
        {copy.publishedAt
          ? `Version ${copy.version}, published ${when(copy.publishedAt)}, is what visitors read at ${pageCopyPath[page]}.`
          : `Nothing is published yet: visitors read the built-in text at ${pageCopyPath[page]}.`}
      </Text>
      {copy.updatedAt && (
        <Text size="sm" c="dimmed">
          Draft last saved {when(copy.updatedAt)}.
        </Text>
      )}
      <Title order={3} size="h4">
        Version history
      </Title>
      {versions.length === 0 ? (
        <Text size="sm" c="dimmed">
          No versions yet: the first Publish makes version 1.
        </Text>
      ) : (
        <Accordion variant="separated">
          {versions.map((version) => (
            <Accordion.Item key={version.version} value={String(version.version)}>
              <Accordion.Control>
                Version {version.version}: {version.title} ({when(version.publishedAt)})
              </Accordion.Control>
              <Accordion.Panel>
                <Markdown source={version.content} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
