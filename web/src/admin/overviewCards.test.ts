import { describe, expect, it } from 'vitest';
import { demoLinksNote, formatCents, overviewGroups } from './overviewCards';

describe('the Overview cards', () => {
  it('shows the headline four, then Daily Activity and Distribution, counts with separators and revenue in dollars', () => {
    const groups = overviewGroups({
      totalUsers: 100_000,
      activeSubscriptions: 12_345,
      totalLinks: 1_000_000,
      demoLinks: 12,
      totalClicks: 10_000_000,
      linksCreatedToday: 42,
      clicksToday: 3_141,
      newUsersThisMonth: 900,
      freeUsers: 87_000,
      paidUsers: 12_000,
      grantedUsers: 1_000,
      monthlyRevenue: 2_366_667,
      timeZone: 'UTC',
    });
    expect(groups).toEqual([
      {
        cards: [
          { label: 'Total Users', value: '100,000' },
          { label: 'Active Subscriptions', value: '12,345' },
          { label: 'Total Links', value: '1,000,000' },
          { label: 'Total Clicks', value: '10,000,000' },
        ],
      },
      {
        title: 'Daily Activity',
        cards: [
          { label: 'Links Created Today', value: '42' },
          { label: 'Clicks Today', value: '3,141' },
          { label: 'New Users This Month', value: '900' },
        ],
      },
      {
        title: 'Distribution',
        cards: [
          { label: 'Free Users', value: '87,000' },
          { label: 'Pro (paid)', value: '12,000' },
          { label: 'Pro (granted)', value: '1,000' },
          { label: 'Monthly Revenue', value: '$23,666.67' },
        ],
      },
    ]);
  });

  it('says how many demo links Total Links leaves out', () => {
    expect(demoLinksNote(1)).toBe(
      'Total Links counts the accounts’ links. 1 demo link made on the landing page without an account is not counted.',
    );
    expect(demoLinksNote(1200)).toContain(
      '1,200 demo links made on the landing page without an account are not counted.',
    );
  });

  it('shows revenue in whole cents', () => {
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(367)).toBe('$3.67');
  });
});
