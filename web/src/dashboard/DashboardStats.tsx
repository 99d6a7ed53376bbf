import { SimpleGrid } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { allowanceFigures } from '../links/linkAllowance';
import { StatCard } from './StatCard';
import { useDashboardTotals } from './totals';

/**
 * Total Links, Total Clicks, This Month (Pro) or Total Used (Free), Links Remaining: the last two are the
 * server's allowance, as the profile and the create refusal count it.
 */
export function DashboardStats({ user }: { user: User }) {
  const { totalLinks, totalClicks } = useDashboardTotals();
  const allowance = allowanceFigures(user.linkAllowance);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
      <StatCard label="Total Links" value={totalLinks} />
      <StatCard label="Total Clicks" value={totalClicks} />
      <StatCard label={allowance.statLabel} value={allowance.used} />
      <StatCard label="Links Remaining" value={allowance.remaining} />
    </SimpleGrid>
  );
}
