import { fixedClock } from '@sniplink/platform';
import { type ContractEvent, events } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { paidPlansProjection } from '../../billing/paid-plans-projection';
import { billingProjection } from '../../billing/projection';
import { adminStatsProjection } from './projection';
import { adminDetailedStats, adminStatsSummary } from './queries';

const ADA = '01890000-0000-7000-8000-00000000000a';
const BOB = '01890000-0000-7000-8000-00000000000b';
const CAROL = '01890000-0000-7000-8000-00000000000c';
const DAN = '01890000-0000-7000-8000-00000000000d';
const link = (n: number) => `01890000-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`;

/** A paid subscription as the billing stream records it. */
const paid = (id: string, plan: 'monthly' | 'yearly', amount: number) =>
  events.subscriptionActivated({
    providerEventId: `evt_${id}`,
    subscriptionId: id,
    customerId: `cus_${id}`,
    plan,
    periodEnd: '2027-05-01T00:00:00.000Z',
    amount,
  });

/** The user stream's mirror of that subscription, which says whether the user is Pro. */
const mirrored = (id: string, plan: 'monthly' | 'yearly') =>
  events.paidPlanSynced({
    version: 1,
    subscriptions: [
      {
        subscriptionId: id,
        plan,
        status: 'active',
        periodEnd: '2027-05-01T00:00:00.000Z',
        cancelAtPeriodEnd: false,
      },
    ],
  });

const registered = (userId: string) =>
  events.userRegistered({ userId, email: 'enc:x', emailHash: `hash-${userId}` });
const created = (linkId: string, ownerId: string) =>
  events.linkCreated({ linkId, ownerId, code: linkId.slice(-6), originalUrl: 'https://example.com/' });
const granted = (plan: 'monthly' | 'yearly') => events.subscriptionStarted({ plan, provider: 'operator' });

/**
 * Sign-ups: Ada on 10 March; Bob at 23:30 UTC on 31 March (1 April in Paris); Carol at 02:00 UTC on 1 April
 * (31 March in New York); Dan on 1 April, erased on 2 April. Links: one at 18:20 UTC on 1 April (past
 * midnight in Kathmandu, +5:45, not yet in Kolkata, +5:30), one at 23:30 UTC on 1 April (2 April east of
 * UTC), two on 2 April, one of them deleted. Ada holds an operator's grant; Carol's was taken back; Dan's
 * went with his erasure. Bob pays monthly ($2), Dan yearly ($24, and still billed after his erasure).
 * Demo links on 20 March: one a visitor keeps, one Ada claims on signing up, one that expires.
 */
const history: [stream: string, ContractEvent, at: string][] = [
  [`user-${ADA}`, registered(ADA), '2027-03-10T09:00:00Z'],
  [`user-${ADA}`, granted('monthly'), '2027-03-10T09:05:00Z'],
  [`link-${link(4)}`, created(link(4), 'visitor-one'), '2027-03-20T10:00:00Z'],
  [`link-${link(5)}`, created(link(5), 'visitor-two'), '2027-03-20T10:01:00Z'],
  [`link-${link(6)}`, created(link(6), 'visitor-three'), '2027-03-20T10:02:00Z'],
  [
    `link-${link(5)}`,
    events.linkOwnerChanged({ ownerId: ADA, previousOwnerId: 'visitor-two' }),
    '2027-03-20T10:03:00Z',
  ],
  [`link-${link(6)}`, events.linkDeleted(), '2027-03-20T10:04:00Z'],
  [`user-${BOB}`, registered(BOB), '2027-03-31T23:30:00Z'],
  [`billing-${BOB}`, paid('bob', 'monthly', 200), '2027-03-31T23:40:00Z'],
  [`user-${BOB}`, mirrored('bob', 'monthly'), '2027-03-31T23:40:01Z'],
  [`user-${CAROL}`, registered(CAROL), '2027-04-01T02:00:00Z'],
  [`user-${CAROL}`, granted('yearly'), '2027-04-01T02:10:00Z'],
  [`user-${DAN}`, registered(DAN), '2027-04-01T10:00:00Z'],
  [`user-${DAN}`, granted('monthly'), '2027-04-01T10:01:00Z'],
  [`billing-${DAN}`, paid('dan', 'yearly', 2400), '2027-04-01T10:02:00Z'],
  [`user-${DAN}`, mirrored('dan', 'yearly'), '2027-04-01T10:02:01Z'],
  [`link-${link(0)}`, created(link(0), ADA), '2027-04-01T18:20:00Z'],
  [`user-${CAROL}`, events.subscriptionEnded({ reason: 'operator' }), '2027-04-01T20:00:00Z'],
  [`link-${link(1)}`, created(link(1), ADA), '2027-04-01T23:30:00Z'],
  [`link-${link(2)}`, created(link(2), BOB), '2027-04-02T08:00:00Z'],
  [`link-${link(3)}`, created(link(3), BOB), '2027-04-02T09:00:00Z'],
  [`link-${link(3)}`, events.linkDeleted(), '2027-04-02T09:30:00Z'],
  [`user-${DAN}`, events.userErased(), '2027-04-02T10:00:00Z'],
];

const NOON_APRIL_2 = '2027-04-02T12:00:00Z';

describe('admin stats projection', () => {
  // With the billing read models its counts of subscriptions and Pro users read.
  const spec = projectionSpec([adminStatsProjection, billingProjection, paidPlansProjection]);
  beforeAll(() =>
    spec.given(history.map(([streamId, event, at]) => ({ streamId, event, occurredAt: new Date(at) }))),
  );

  it('counts accounts that stand, live links, and who is free, paid or Pro by a grant', async () => {
    const now = fixedClock(NOON_APRIL_2).now();
    const stats = await adminDetailedStats(spec.db, { now, timeZone: 'UTC' });
    expect(stats).toMatchObject({
      // Dan is erased; one of four links is deleted, and Ada holds the demo link she claimed.
      totalUsers: 3,
      totalLinks: 4,
      // The one a visitor still holds, counted apart.
      demoLinks: 1,
      totalClicks: 0,
      // Bob's and Dan's subscriptions are billed, $2 a month and $24 a year: 200 + 200 cents a month.
      activeSubscriptions: 2,
      monthlyRevenue: 400,
      // Bob pays; Ada is Pro by a grant (neither free nor paid); Carol's grant was taken back.
      paidUsers: 1,
      freeUsers: 1,
      grantedUsers: 1,
    });
    expect(stats.freeUsers + stats.paidUsers + stats.grantedUsers).toBe(stats.totalUsers);
    expect(await adminStatsSummary(spec.db, now)).toEqual({
      totalUsers: 3,
      activeSubscriptions: 2,
      totalLinks: 4,
      demoLinks: 1,
      totalClicks: 0,
    });
  });

  it('counts today and this month from midnight in the time zone asked', async () => {
    const clock = fixedClock(NOON_APRIL_2);
    const inZone = async (timeZone: string) => {
      const { linksCreatedToday, newUsersThisMonth } = await adminDetailedStats(spec.db, {
        now: clock.now(),
        timeZone,
      });
      return { linksCreatedToday, newUsersThisMonth };
    };
    // UTC: the two links of 2 April (the deleted one was created today too); Carol's and Dan's sign-ups.
    expect(await inZone('UTC')).toEqual({ linksCreatedToday: 2, newUsersThisMonth: 2 });
    // Paris (UTC+2): the link of 23:30 UTC was made on 2 April; Bob signed up on 1 April.
    expect(await inZone('Europe/Paris')).toEqual({ linksCreatedToday: 3, newUsersThisMonth: 3 });
    // New York (UTC-4): Carol signed up on 31 March; today began at 04:00 UTC.
    expect(await inZone('America/New_York')).toEqual({ linksCreatedToday: 2, newUsersThisMonth: 1 });
    // Quarter-hour offsets: 18:20 UTC is past midnight in Kathmandu (+5:45), not yet in Kolkata (+5:30).
    expect(await inZone('Asia/Kathmandu')).toMatchObject({ linksCreatedToday: 4 });
    expect(await inZone('Asia/Kolkata')).toMatchObject({ linksCreatedToday: 3 });

    // At 01:00 UTC on 1 May a new month has begun in UTC, not yet in New York (21:00 on 30 April).
    clock.set('2027-05-01T01:00:00Z');
    expect(await inZone('UTC')).toEqual({ linksCreatedToday: 0, newUsersThisMonth: 0 });
    expect(await inZone('America/New_York')).toEqual({ linksCreatedToday: 0, newUsersThisMonth: 1 });
  });
});
