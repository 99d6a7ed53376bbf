import { SimpleGrid } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { allowanceFigures } from '../links/linkAllowance';
import { StatCard } from './StatCard';
import { useDashboardTotals } from './totals';

/**
 * Total Links (held), Total Clicks, Created This Month (Pro only: deleted links count, so it can pass
 * Total Links), Links Remaining with the allowance it is counted against: the last two are the server's
 * allowance, as the profile and the create refusal count it.
 */
export function DashboardStats({ user }: { user: User }) {
  const { totalLinks, totalClicks } = useDashboardTotals();
  const allowance = allowanceFigures(user.linkAllowance);
  return (
    <SimpleGrid cols={{ base: 2, sm: allowance.monthLabel ? 4 : 3 }} spacing="md">
      <StatCard label="Total Links" value={totalLinks} />
      <StatCard label="Total Clicks" value={totalClicks} />
      {allowance.monthLabel && (
        <StatCard label={allowance.monthLabel} value={allowance.used} hint="deleted links count too" />
      )}
      <StatCard label="Links Remaining" value={allowance.remaining} hint={allowance.ofLimit} />
    </SimpleGrid>
  );
}
