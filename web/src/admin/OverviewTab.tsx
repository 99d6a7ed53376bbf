import { Alert, Button, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { StatCard } from '../dashboard/StatCard';
import { overviewGroups } from './overviewCards';
import { adminDetailedStatsQueryOptions } from './statsApi';

/**
 * The Overview tab: the headline cards, "Daily Activity" and "Distribution",
 * from `GET /api/admin/stats/detailed`. Asked for each time the tab opens, and again by Refresh.
 */
export function OverviewTab() {
  const stats = useQuery(adminDetailedStatsQueryOptions());
  const refresh = (
    <Button variant="default" size="xs" onClick={() => void stats.refetch()} loading={stats.isFetching}>
      Refresh
    </Button>
  );
  if (stats.isPending) {
    return (
      <Group gap="sm" py="xl" role="status">
        <Loader size="sm" />
        <Text c="dimmed">Loading statistics…</Text>
      </Group>
    );
  }
  if (stats.isError) {
    return (
      <Alert color="red" title="Could not load the statistics" role="alert">
        <Text size="sm" mb="sm">
          {stats.error.message}
        </Text>
        {refresh}
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          “Today” and “this month” are counted in {stats.data.timeZone}.
        </Text>
        {refresh}
      </Group>
      {overviewGroups(stats.data).map((group) => (
        <Stack key={group.title ?? 'headline'} gap="sm">
          {group.title && (
            <Title order={2} size="h4">
              {group.title}
            </Title>
          )}
          <SimpleGrid cols={{ base: 2, sm: group.cards.length }} spacing="md">
            {group.cards.map((card) => (
              <StatCard key={card.label} label={card.label} value={card.value} />
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}
