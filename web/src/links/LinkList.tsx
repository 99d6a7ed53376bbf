import { Button, Card, Center, Group, Loader, Pagination, Stack, Text, Title } from '@mantine/core';
import type { Link } from '@sniplink/contracts';
import { analyticsExportUrl } from '../analytics/api';
import { LinkCard } from './LinkCard';

export const linksPerPage = 5;

interface LinkListProps {
  links: Link[] | undefined;
  failed: boolean;
  page: number;
  onPageChange: (page: number) => void;
}

/** The user's links, five to a page, with the CSV export. */
export function LinkList({ links, failed, page, onPageChange }: LinkListProps) {
  const pageCount = Math.max(1, Math.ceil((links?.length ?? 0) / linksPerPage));
  // Deleting the last link of the last page moves back a page rather than showing an empty one.
  const current = Math.min(page, pageCount);
  const shown = links?.slice((current - 1) * linksPerPage, current * linksPerPage) ?? [];

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} fz="lg">
          Your Links
        </Title>
        <Button
          component="a"
          href={analyticsExportUrl}
          target="_blank"
          rel="noopener"
          variant="default"
          size="sm"
        >
          Export CSV
        </Button>
      </Group>
      {failed ? (
        <Text c="red">Failed to load your links.</Text>
      ) : links === undefined ? (
        <Center py="lg">
          <Loader aria-label="Loading links" />
        </Center>
      ) : links.length === 0 ? (
        <Text c="dimmed">No links yet. Create your first short link above.</Text>
      ) : (
        <Stack gap="sm">
          {shown.map((link) => (
            <LinkCard key={link.id} link={link} />
          ))}
        </Stack>
      )}
      {pageCount > 1 && (
        <Center mt="md">
          <Pagination
            total={pageCount}
            value={current}
            onChange={onPageChange}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            size="sm"
          />
        </Center>
      )}
    </Card>
  );
}
