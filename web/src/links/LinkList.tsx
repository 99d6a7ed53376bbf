import { Button, Card, Center, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { analyticsExportUrl } from '../analytics/api';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { pageInAddress } from '../places';
import { linksQueryOptions } from './api';
import { LinkCard } from './LinkCard';

const linksPerPage = 5;

/** The user's links, five to a page (the page is in the address), with the CSV export. */
export function LinkList() {
  const { data: links } = useSuspenseQuery(linksQueryOptions());
  const { place, go } = useDashboardPlace();
  const pageCount = Math.max(1, Math.ceil(links.length / linksPerPage));
  // Deleting the last link of the last page moves back a page rather than showing an empty one.
  const current = Math.min(place.page ?? 1, pageCount);
  const shown = links.slice((current - 1) * linksPerPage, current * linksPerPage);

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
      {links.length === 0 ? (
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
            onChange={(page) => go({ page: pageInAddress(page) }, { replace: true })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            size="sm"
          />
        </Center>
      )}
    </Card>
  );
}
