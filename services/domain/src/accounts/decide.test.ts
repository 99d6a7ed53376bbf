import type { PaidPeriod, UserEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { type UserCommand, userDecider } from './decide';
import type { UserStreamEvent } from './user';

const given = specFor(userDecider);
const userId = '01890000-0000-7000-8000-000000000001';
const registered: Extract<UserEvent, { type: 'UserRegistered' }> = {
  type: 'UserRegistered',
  data: {
    userId,
    email: 'enc:v1:email',
    firstName: 'enc:v1:ada',
    lastName: null,
    profileImageUrl: null,
    emailHash: 'h1',
    via: 'password',
  },
};

describe('user decider', () => {
  it('registers a new account once', () => {
    const { data } = registered;
    given([])
      .when({ type: 'RegisterUser', ...data })
      .then([registered]);
    given([registered])
      .when({ type: 'RegisterUser', ...data })
      .thenThrows({ code: 'CONFLICT', status: 409 });
  });

  it('refuses every other command on an account that does not exist or was erased', () => {
    given([]).when({ type: 'UpdateProfile', firstName: null, lastName: null }).thenThrows({ status: 404 });
    given([registered, { type: 'UserErased', data: {} }])
      .when({ type: 'SuspendUser', reason: null })
      .thenThrows({
        code: 'NOT_FOUND',
      });
  });

  it('keeps a name the update leaves out, and clears one set to null', () => {
    given([registered])
      .when({ type: 'UpdateProfile', lastName: 'enc:v1:lovelace' })
      .then([{ type: 'UserProfileUpdated', data: { firstName: 'enc:v1:ada', lastName: 'enc:v1:lovelace' } }]);
    given([registered])
      .when({ type: 'UpdateProfile', firstName: null })
      .then([{ type: 'UserProfileUpdated', data: { firstName: null, lastName: null } }]);
  });

  it('updates the profile with the new (encrypted) names', () => {
    given([registered])
      .when({ type: 'UpdateProfile', firstName: 'enc:v1:grace', lastName: 'enc:v1:hopper' })
      .then([{ type: 'UserProfileUpdated', data: { firstName: 'enc:v1:grace', lastName: 'enc:v1:hopper' } }]);
  });

  it('suspends and unsuspends, each only when it changes something', () => {
    const suspended: UserEvent = { type: 'UserSuspended', data: { reason: 'spam' } };
    given([registered]).when({ type: 'SuspendUser', reason: 'spam' }).then([suspended]);
    given([registered, suspended]).when({ type: 'SuspendUser', reason: 'again' }).then([]);
    given([registered, suspended])
      .when({ type: 'UnsuspendUser' })
      .then([{ type: 'UserUnsuspended', data: {} }]);
    given([registered]).when({ type: 'UnsuspendUser' }).then([]);
  });

  it('keeps the plan across a suspension: suspension is its own flag', () => {
    const started: UserEvent = {
      type: 'SubscriptionStarted',
      data: { plan: 'yearly', provider: 'operator', reference: null },
    };
    given([
      registered,
      started,
      { type: 'UserSuspended', data: { reason: null } },
      { type: 'UserUnsuspended', data: {} },
    ])
      .when({ type: 'StartSubscription', plan: 'yearly', provider: 'operator', reference: null })
      .then([]);
  });

  it('starts, changes and ends a subscription', () => {
    const monthly: UserEvent = {
      type: 'SubscriptionStarted',
      data: { plan: 'monthly', provider: 'operator', reference: null },
    };
    given([registered])
      .when({ type: 'StartSubscription', plan: 'monthly', provider: 'operator', reference: null })
      .then([monthly]);
    given([registered, monthly])
      .when({ type: 'StartSubscription', plan: 'yearly', provider: 'operator', reference: null })
      .then([
        { type: 'SubscriptionStarted', data: { plan: 'yearly', provider: 'operator', reference: null } },
      ]);
    given([registered, monthly])
      .when({ type: 'EndSubscription', reason: 'operator' })
      .then([{ type: 'SubscriptionEnded', data: { reason: 'operator' } }]);
    given([registered]).when({ type: 'EndSubscription', reason: 'operator' }).then([]);
  });

  it('links an identity once', () => {
    const linked: UserEvent = {
      type: 'UserIdentityLinked',
      data: { issuer: 'https://id.example', subjectHash: 's1' },
    };
    given([registered])
      .when({ type: 'LinkIdentity', issuer: 'https://id.example', subjectHash: 's1' })
      .then([linked]);
    given([registered, linked])
      .when({ type: 'LinkIdentity', issuer: 'https://id.example', subjectHash: 's1' })
      .then([]);
  });

  it("verifies the account's address once; an account from a provider has it verified already", () => {
    const verified: UserEvent = { type: 'UserEmailVerified', data: { emailHash: 'h1' } };
    given([registered]).when({ type: 'VerifyEmail', emailHash: 'h1' }).then([verified]);
    given([registered, verified]).when({ type: 'VerifyEmail', emailHash: 'h1' }).then([]);
    const viaProvider: UserEvent = {
      ...registered,
      data: { ...registered.data, via: 'oidc' },
    };
    given([viaProvider]).when({ type: 'VerifyEmail', emailHash: 'h1' }).then([]);
  });

  it('refuses a verification link sent to an address the account does not have', () => {
    given([registered]).when({ type: 'VerifyEmail', emailHash: 'h2' }).thenThrows({ code: 'CONFLICT' });
    given([]).when({ type: 'VerifyEmail', emailHash: 'h1' }).thenThrows({ status: 404 });
  });

  it('erases an account', () => {
    given([registered])
      .when({ type: 'EraseUser' })
      .then([{ type: 'UserErased', data: {} }]);
  });
});

const PERIOD_END = new Date('2027-02-01T00:00:00.000Z');

describe('the link allowance follows the paid plan the user stream mirrors', () => {
  const period = (changes: Partial<PaidPeriod> = {}): PaidPeriod => ({
    subscriptionId: 'sub_1',
    plan: 'monthly',
    status: 'past_due',
    periodEnd: PERIOD_END.toISOString(),
    cancelAtPeriodEnd: false,
    ...changes,
  });
  const synced = (version: number, subscriptions: PaidPeriod[]): UserStreamEvent => ({
    type: 'PaidPlanSynced',
    data: { version, subscriptions },
  });
  const fiveLinks: UserStreamEvent[] = Array.from({ length: 5 }, (_, i) => ({
    type: 'LinkSlotTaken',
    data: { linkId: `01890000-0000-7000-9000-${String(i).padStart(12, '0')}`, month: '2027-01' },
  }));
  const sixth = '01890000-0000-7000-9000-000000000099';
  const limits = { free: 5, proMonthly: 500 };

  it('lets a past-due user create past 5 links until the period ends, then holds them to Free', () => {
    const history = [registered, synced(2, [period()]), ...fiveLinks];
    given(history)
      .when({ type: 'TakeLinkSlot', linkId: sixth, now: new Date(PERIOD_END.getTime() - 1), limits })
      .then([{ type: 'LinkSlotTaken', data: { linkId: sixth, month: '2027-01' } }]);
    given(history)
      .when({ type: 'TakeLinkSlot', linkId: sixth, now: PERIOD_END, limits })
      .thenThrows({ code: 'SUBSCRIPTION_REQUIRED', status: 403 });
  });

  it('applies the allowances passed in with the command, and keeps links held past a lowered one', () => {
    const now = new Date('2027-01-20T00:00:00.000Z');
    const lowered = { free: 2, proMonthly: 500 };
    given([registered, ...fiveLinks])
      .when({ type: 'TakeLinkSlot', linkId: sixth, now, limits: lowered })
      .thenThrows({
        code: 'SUBSCRIPTION_REQUIRED',
        message: 'Free accounts can hold 2 links at a time. Delete a link, or upgrade to Pro to create more.',
      });
    // Giving one back under the lowered allowance does not make room: 4 held, 2 allowed.
    const released: UserStreamEvent = {
      type: 'LinkSlotReleased',
      data: { linkId: '01890000-0000-7000-9000-000000000000', month: '2027-01', reason: 'deleted' },
    };
    given([registered, ...fiveLinks, released])
      .when({ type: 'TakeLinkSlot', linkId: sixth, now, limits: lowered })
      .thenThrows({ code: 'SUBSCRIPTION_REQUIRED' });
    given([registered, ...fiveLinks])
      .when({ type: 'TakeLinkSlot', linkId: sixth, now, limits: { free: 6, proMonthly: 500 } })
      .then([{ type: 'LinkSlotTaken', data: { linkId: sixth, month: '2027-01' } }]);
    given([registered, synced(2, [period()]), ...fiveLinks])
      .when({
        type: 'TakeLinkSlot',
        linkId: sixth,
        now: new Date(PERIOD_END.getTime() - 1),
        limits: { free: 5, proMonthly: 5 },
      })
      .thenThrows({
        code: 'MONTHLY_LIMIT_REACHED',
        message:
          "Pro accounts can create 5 links a month, and this month's are used. More can be created from the 1st of next month (UTC).",
      });
  });

  it('mirrors only a newer version: a copy or an older mirror changes nothing', () => {
    const command: UserCommand = { type: 'SyncPaidPlan', version: 2, subscriptions: [period()] };
    given([registered])
      .when(command)
      .then([synced(2, [period()])]);
    given([registered, synced(2, [period()])])
      .when(command)
      .then([]);
    given([registered, synced(3, [])])
      .when(command)
      .then([]);
  });
});

describe('the admin flag, mirrored from the admin roster', () => {
  const granted = (rosterRevision: number, by = 'system'): UserStreamEvent => ({
    type: 'AdminGranted',
    data: { by, rosterRevision },
  });
  const revoked = (rosterRevision: number, by = 'operator'): UserStreamEvent => ({
    type: 'AdminRevoked',
    data: { by, rosterRevision },
  });

  it('grants admin, recording who acted; granting an admin appends nothing', () => {
    given([registered])
      .when({ type: 'GrantAdmin', by: 'system', rosterRevision: 0 })
      .then([granted(0)]);
    given([registered, granted(0)])
      .when({ type: 'GrantAdmin', by: 'operator', rosterRevision: 3 })
      .then([]);
  });

  it('revokes admin; revoking a non-admin appends nothing', () => {
    given([registered, granted(0)])
      .when({ type: 'RevokeAdmin', by: 'operator', rosterRevision: 1 })
      .then([revoked(1)]);
    given([registered]).when({ type: 'RevokeAdmin', by: 'operator', rosterRevision: 1 }).then([]);
  });

  it('ignores a word older than the roster revision it mirrors (a slow request cannot undo a later change)', () => {
    given([registered, granted(0), revoked(2)])
      .when({ type: 'GrantAdmin', by: 'system', rosterRevision: 1 })
      .then([]);
    given([registered, granted(0), revoked(2)])
      .when({ type: 'GrantAdmin', by: userId, rosterRevision: 3 })
      .then([granted(3, userId)]);
  });

  it('refuses a flag for an account that does not exist', () => {
    given([]).when({ type: 'GrantAdmin', by: 'system', rosterRevision: 0 }).thenThrows({ status: 404 });
  });
});
