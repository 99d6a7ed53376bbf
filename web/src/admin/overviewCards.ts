import type { AdminDetailedStats } from '@sniplink/contracts';

export interface OverviewCard {
  label: string;
  value: string;
}

export interface OverviewGroup {
  /** Absent for the first group: the headline cards stand under the tab itself. */
  title?: string;
  cards: OverviewCard[];
}

const count = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** What Total Links leaves out, said under the cards: the landing page's demo links no account holds. */
export const demoLinksNote = (demoLinks: number): string =>
  `Total Links counts the accounts’ links. ${count.format(demoLinks)} demo ${
    demoLinks === 1 ? 'link' : 'links'
  } made on the landing page without an account ${demoLinks === 1 ? 'is' : 'are'} not counted.`;

/** Cents as dollars: 76667 -> "$766.67". */
export const formatCents = (cents: number): string => dollars.format(cents / 100);

/**
 * The Overview's three groups of cards: the headline figures, "Daily
 * Activity" and "Distribution", each figure formatted as an admin reads it.
 */
export function overviewGroups(stats: AdminDetailedStats): OverviewGroup[] {
  const card = (label: string, value: number): OverviewCard => ({ label, value: count.format(value) });
  return [
    {
      cards: [
        card('Total Users', stats.totalUsers),
        card('Active Subscriptions', stats.activeSubscriptions),
        card('Total Links', stats.totalLinks),
        card('Total Clicks', stats.totalClicks),
      ],
    },
    {
      title: 'Daily Activity',
      cards: [
        card('Links Created Today', stats.linksCreatedToday),
        card('Clicks Today', stats.clicksToday),
        card('New Users This Month', stats.newUsersThisMonth),
      ],
    },
    {
      // Every account is in one of the three: they add up to Total Users.
      title: 'Distribution',
      cards: [
        card('Free Users', stats.freeUsers),
        card('Pro (paid)', stats.paidUsers),
        card('Pro (granted)', stats.grantedUsers),
        { label: 'Monthly Revenue', value: formatCents(stats.monthlyRevenue) },
      ],
    },
  ];
}
