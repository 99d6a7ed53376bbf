import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { StatCard } from '../dashboard/StatCard';
import { OverviewTrends } from './OverviewTrends';
import { demoLinksNote, overviewGroups } from './overviewCards';
import { adminDetailedStatsQueryOptions, adminTrendsQueryOptions } from './statsApi';

/**
 * The Overview tab: the headline cards, "Daily Activity" and "Distribution",
 * from `GET /api/admin/stats/detailed`. Asked for each time the tab opens, and again by Refresh.
 */
export function OverviewTab() {
  const stats = useSuspenseQuery(adminDetailedStatsQueryOptions());
  const trends = useQueryClient();
  const refresh = (
    <Button
      variant="default"
      size="xs"
      onClick={() => {
        void stats.refetch();
        void trends.refetchQueries(adminTrendsQueryOptions());
      }}
      loading={stats.isFetching}
    >
      Refresh
    </Button>
  );
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          “Today” and “this month” are counted in {stats.data.timeZone}.
        </Text>
        {refresh}
      </Group>
      {overviewGroups(stats.data).map((group, index) => (
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
          {index === 0 && (
            <Text size="sm" c="dimmed">
              {demoLinksNote(stats.data.demoLinks)}
            </Text>
          )}
        </Stack>
      ))}
      <OverviewTrends />
    </Stack>
  );
}
