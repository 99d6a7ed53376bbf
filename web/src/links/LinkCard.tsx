import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Collapse,
  Group,
  Loader,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Link } from '@sniplink/contracts';
import { lazy, Suspense } from 'react';
import { copyToClipboard } from '../components/CopyButton';
import { relativeDay } from '../components/dates';
import { toast } from '../components/toast';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { useDuplicateLink } from './api';
import { useSetLinkPaused } from './controlsApi';
import { DeleteLinkDialog } from './DeleteLinkDialog';
import { EditLinkDialog } from './EditLinkDialog';
import { LinkHistory } from './LinkHistory';
import { LinkNotes } from './LinkNotes';
import { downloadQrCode, shortUrlText } from './linkActions';
import { duplicateLinkProblem, updateLinkProblem } from './linkErrors';

// The chart library is large: it loads only when someone opens a link's analytics.
const LinkAnalyticsPanel = lazy(() =>
  import('../analytics/LinkAnalyticsPanel').then((module) => ({ default: module.LinkAnalyticsPanel })),
);

interface LinkCardProps {
  link: Link;
  /** Ticked for a bulk action of the list. */
  selected: boolean;
  onSelectedChange(selected: boolean): void;
}

export function LinkCard({ link, selected, onSelectedChange }: LinkCardProps) {
  const [editing, edit] = useDisclosure(false);
  const [deleting, confirmDelete] = useDisclosure(false);
  const { place, go } = useDashboardPlace();
  // One link's analytics (or history) at a time, named in the address: a reload or a shared address
  // unfolds them again.
  const showAnalytics = place.analytics === link.id;
  const toggleAnalytics = () =>
    go({ analytics: showAnalytics ? undefined : link.id, details: undefined }, { replace: true });
  const detailsTab = place.details ?? 'analytics';
  const showTab = (tab: string | null) =>
    go({ details: tab === 'history' ? 'history' : undefined }, { replace: true });
  const duplicateLink = useDuplicateLink();
  const setPaused = useSetLinkPaused();
  const shown = shortUrlText(link.shortUrl);
  const analyticsId = `link-analytics-${link.id}`;

  const duplicate = () =>
    duplicateLink.mutate(link.id, {
      onSuccess: () => toast.success('Link duplicated successfully!'),
      onError: (error) => {
        const problem = duplicateLinkProblem(error);
        toast.error(problem.title, problem.message);
      },
    });

  const togglePaused = () =>
    setPaused.mutate(
      { id: link.id, paused: !link.paused },
      {
        onSuccess: (changed) =>
          toast.success(changed.paused ? 'Link paused' : 'Link resumed', shortUrlText(changed.shortUrl)),
        onError: (error) => {
          const problem = updateLinkProblem(error);
          toast.error(problem.title, problem.message);
        },
      },
    );

  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={link.title || shown}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Checkbox
          mt={4}
          aria-label={`Select ${shown}`}
          checked={selected}
          onChange={(event) => onSelectedChange(event.currentTarget.checked)}
        />
        <Box miw={0} style={{ flex: 1 }}>
          {link.title && (
            <Text fw={600} truncate>
              {link.title}
            </Text>
          )}
          <Anchor
            href={link.shortUrl}
            target="_blank"
            rel="noopener noreferrer"
            fw={600}
            style={{ wordBreak: 'break-all' }}
          >
            {shown}
          </Anchor>
          {link.pendingApproval && (
            <Badge
              ml="xs"
              color="yellow"
              variant="light"
              title="This short code contains a protected brand name: it redirects once an admin approves it"
            >
              Pending approval
            </Badge>
          )}
          <Text size="sm" c="dimmed" truncate title={link.originalUrl}>
            {link.originalUrl}
          </Text>
          <Text size="xs" c="dimmed" mt={2}>
            Created {relativeDay(link.createdAt, new Date())}
          </Text>
          <LinkNotes link={link} />
        </Box>
        <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
          <Text fw={700} fz="xl" lh={1.1}>
            {link.clickCount}
          </Text>
          <Text size="xs" c="dimmed">
            {link.clickCount === 1 ? 'click' : 'clicks'}
          </Text>
        </Stack>
      </Group>

      <Group gap="xs" mt="sm">
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => void copyToClipboard(link.shortUrl, 'Short URL copied to clipboard')}
          aria-label={`Copy ${shown}`}
        >
          Copy
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => void downloadQrCode(link.shortUrl, link.shortCode)}
          aria-label={`QR code for ${link.shortCode}`}
        >
          QR code
        </Button>
        <Button size="compact-sm" variant="default" onClick={edit.open} aria-label={`Edit ${link.shortCode}`}>
          Edit
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={duplicate}
          loading={duplicateLink.isPending}
          aria-label={`Duplicate ${link.shortCode}`}
        >
          Duplicate
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={togglePaused}
          loading={setPaused.isPending}
          aria-label={`${link.paused ? 'Resume' : 'Pause'} ${link.shortCode}`}
        >
          {link.paused ? 'Resume' : 'Pause'}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={toggleAnalytics}
          aria-expanded={showAnalytics}
          aria-controls={analyticsId}
          aria-label={`Analytics for ${link.shortCode}`}
        >
          Analytics
        </Button>
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          onClick={confirmDelete.open}
          aria-label={`Delete ${link.shortCode}`}
        >
          Delete
        </Button>
      </Group>

      <Collapse expanded={showAnalytics} id={analyticsId}>
        {showAnalytics && (
          <Tabs value={detailsTab} onChange={showTab} keepMounted={false} pt="md">
            <Tabs.List mb="md">
              <Tabs.Tab value="analytics">Analytics</Tabs.Tab>
              <Tabs.Tab value="history">History</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="analytics">
              <Suspense fallback={<Loader size="sm" aria-label="Loading analytics" />}>
                <LinkAnalyticsPanel linkId={link.id} rules={link.rules} />
              </Suspense>
            </Tabs.Panel>
            <Tabs.Panel value="history">
              <LinkHistory linkId={link.id} />
            </Tabs.Panel>
          </Tabs>
        )}
      </Collapse>

      <EditLinkDialog link={link} opened={editing} onClose={edit.close} />
      <DeleteLinkDialog link={link} opened={deleting} onClose={confirmDelete.close} />
    </Card>
  );
}
