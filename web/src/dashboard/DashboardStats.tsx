import { SimpleGrid } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { isPro } from '../accounts/plan';
import { linksRemainingFor } from '../links/linkAllowance';
import { StatCard } from './StatCard';

interface DashboardStatsProps {
  user: User;
  /** Undefined while the user's analytics load. */
  totalLinks: number | undefined;
  totalClicks: number | undefined;
}

/** Total Links, Total Clicks, This Month (Pro) or Total Used (Free), Links Remaining. */
export function DashboardStats({ user, totalLinks, totalClicks }: DashboardStatsProps) {
  const pro = isPro(user);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
      <StatCard label="Total Links" value={totalLinks} />
      <StatCard label="Total Clicks" value={totalClicks} />
      {pro ? (
        <StatCard label="This Month" value={user.linksCreatedThisMonth} />
      ) : (
        <StatCard label="Total Used" value={totalLinks} />
      )}
      <StatCard
        label="Links Remaining"
        value={totalLinks === undefined ? undefined : linksRemainingFor(user, totalLinks)}
      />
    </SimpleGrid>
  );
}
