import {
  type AdminActor,
  adminFlagEvents,
  type Encrypted,
  FREE_LINK_LIMIT,
  type LinkLimits,
  linkAllowance,
  linkLimitReachedMessage,
  linkQuotaEvents,
  type PaidPeriod,
  type PlanId,
  PRO_MONTHLY_LINK_LIMIT,
  paidPlanEvents,
  userEvents,
} from '@sniplink/contracts';
import { isProAt } from '../billing/pro';
import { type Decider, exhaustive } from '../decider';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { evolveUser, initialUserState, type UserState, type UserStreamEvent } from './user';

export { FREE_LINK_LIMIT, PRO_MONTHLY_LINK_LIMIT };

/** The month a link counts against (`YYYY-MM`, UTC): Pro's allowance starts over at 00:00 UTC on the 1st. */
export const utcMonthOf = (instant: Date): string => instant.toISOString().slice(0, 7);

export type UserCommand =
  | {
      type: 'RegisterUser';
      userId: string;
      email: Encrypted;
      emailHash: string;
      firstName: Encrypted | null;
      lastName: Encrypted | null;
      profileImageUrl: Encrypted | null;
      via: 'password' | 'oidc';
    }
  /** An absent name is unchanged; null clears it. */
  | { type: 'UpdateProfile'; firstName?: Encrypted | null; lastName?: Encrypted | null }
  | { type: 'RecordPasswordChange'; via: 'reset' | 'change' }
  | { type: 'LinkIdentity'; issuer: string; subjectHash: string }
  /** The link mailed to the address named by `emailHash` was opened. */
  | { type: 'VerifyEmail'; emailHash: string }
  | { type: 'SuspendUser'; reason: string | null }
  | { type: 'UnsuspendUser' }
  /**
   * Mirrors the `admin-roster` stream's word on this user (`rosterRevision`: the roster's revision that
   * decided it). Granting an admin, or revoking a non-admin, appends nothing; an older word than the one
   * mirrored last changes nothing (a slow request cannot undo a later change).
   */
  | { type: 'GrantAdmin'; by: AdminActor; rosterRevision: number }
  | { type: 'RevokeAdmin'; by: AdminActor; rosterRevision: number }
  | {
      type: 'StartSubscription';
      plan: PlanId;
      provider: 'operator' | 'local' | 'stripe';
      reference: string | null;
    }
  | { type: 'EndSubscription'; reason: 'canceled' | 'operator' | 'expired' }
  /** Mirrors the billing stream's subscriptions (`paidPlanOf`); an older or equal version changes nothing. */
  | { type: 'SyncPaidPlan'; version: number; subscriptions: PaidPeriod[] }
  | { type: 'EraseUser' }
  /**
   * Counts a new link against the plan: Free holds `limits.free`, Pro creates `limits.proMonthly` per UTC
   * month (the month of `now`). The limits are the admin's settings in force, passed in with the command.
   */
  | { type: 'TakeLinkSlot'; linkId: string; now: Date; limits: LinkLimits }
  | { type: 'ReleaseLinkSlot'; linkId: string; reason: 'deleted' | 'abandoned' };

export function decideUser(command: UserCommand, state: UserState): UserStreamEvent[] {
  if (command.type === 'RegisterUser') return register(command, state);
  if (state.status !== 'active') throw new NotFoundError('No such account');
  switch (command.type) {
    case 'UpdateProfile': {
      const firstName = command.firstName === undefined ? state.firstName : command.firstName;
      const lastName = command.lastName === undefined ? state.lastName : command.lastName;
      return [{ type: 'UserProfileUpdated', data: { firstName, lastName } }];
    }
    case 'RecordPasswordChange':
      return [{ type: 'UserPasswordChanged', data: { via: command.via } }];
    case 'LinkIdentity': {
      const known = state.linkedIdentities.includes(`${command.issuer}|${command.subjectHash}`);
      return known
        ? []
        : [
            {
              type: 'UserIdentityLinked',
              data: { issuer: command.issuer, subjectHash: command.subjectHash },
            },
          ];
    }
    case 'VerifyEmail':
      return verifyEmail(command.emailHash, state);
    case 'SuspendUser':
      return state.suspended ? [] : [{ type: 'UserSuspended', data: { reason: command.reason } }];
    case 'UnsuspendUser':
      return state.suspended ? [{ type: 'UserUnsuspended', data: {} }] : [];
    case 'GrantAdmin':
    case 'RevokeAdmin':
      return mirrorAdminFlag(command, state);
    case 'StartSubscription':
      if (state.subscription?.plan === command.plan) return [];
      return [
        {
          type: 'SubscriptionStarted',
          data: { plan: command.plan, provider: command.provider, reference: command.reference },
        },
      ];
    case 'EndSubscription':
      return state.subscription ? [{ type: 'SubscriptionEnded', data: { reason: command.reason } }] : [];
    case 'SyncPaidPlan': {
      const { version, subscriptions } = command;
      return version > state.paidPlan.version
        ? [{ type: 'PaidPlanSynced', data: { version, subscriptions } }]
        : [];
    }
    case 'EraseUser':
      return [{ type: 'UserErased', data: {} }];
    case 'TakeLinkSlot':
      return takeLinkSlot(command, state);
    case 'ReleaseLinkSlot': {
      const month = state.linkSlots.get(command.linkId);
      return month === undefined
        ? []
        : [{ type: 'LinkSlotReleased', data: { linkId: command.linkId, month, reason: command.reason } }];
    }
    default:
      return exhaustive(command);
  }
}

/**
 * Pro at `now`: granted by an operator, or paid for (a subscription the mirror holds is Pro at that
 * instant: past due until its period ends, canceled at the period's end until then).
 */
export function isUserProAt(state: UserState, now: Date): boolean {
  return state.subscription !== null || state.paidPlan.subscriptions.some((terms) => isProAt(terms, now));
}

/**
 * The allowance rule the user JSON shows (`linkAllowance`, contracts), on the user's stream at the
 * command's instant, with the limits in force. Links already held are never taken away: a lowered Free
 * allowance only stops new ones.
 */
function takeLinkSlot(
  { linkId, now, limits }: Extract<UserCommand, { type: 'TakeLinkSlot' }>,
  state: UserState,
): UserStreamEvent[] {
  if (state.linkSlots.has(linkId)) return []; // a retried create continues
  const pro = isUserProAt(state, now);
  const month = utcMonthOf(now);
  const held = state.linkSlots.size;
  if (linkAllowance(pro, state.createdPerMonth[month] ?? 0, held, limits).remaining > 0) {
    return [{ type: 'LinkSlotTaken', data: { linkId, month } }];
  }
  throw pro
    ? new ForbiddenError('MONTHLY_LIMIT_REACHED', linkLimitReachedMessage('month', limits.proMonthly))
    : new ForbiddenError('SUBSCRIPTION_REQUIRED', linkLimitReachedMessage('lifetime', limits.free));
}

function mirrorAdminFlag(
  { type, by, rosterRevision }: Extract<UserCommand, { type: 'GrantAdmin' | 'RevokeAdmin' }>,
  state: UserState,
): UserStreamEvent[] {
  const grant = type === 'GrantAdmin';
  if (state.adminRosterRevision !== null && rosterRevision <= state.adminRosterRevision) return [];
  if (state.isAdmin === grant) return [];
  return [{ type: grant ? 'AdminGranted' : 'AdminRevoked', data: { by, rosterRevision } }];
}

function verifyEmail(emailHash: string, state: UserState): UserStreamEvent[] {
  // A link mailed to an address the account no longer has proves nothing about the one it has now.
  if (emailHash !== state.emailHash)
    throw new ConflictError('CONFLICT', 'This link was sent to an address the account no longer has');
  return state.emailVerified ? [] : [{ type: 'UserEmailVerified', data: { emailHash } }];
}

function register(
  command: Extract<UserCommand, { type: 'RegisterUser' }>,
  state: UserState,
): UserStreamEvent[] {
  if (state.status !== 'none') throw new ConflictError('CONFLICT', 'This account already exists');
  const { userId, email, emailHash, firstName, lastName, profileImageUrl, via } = command;
  return [
    { type: 'UserRegistered', data: { userId, email, emailHash, firstName, lastName, profileImageUrl, via } },
  ];
}

export const userDecider: Decider<UserCommand, UserState, UserStreamEvent> = {
  events: userEvents.with(linkQuotaEvents).with(paidPlanEvents).with(adminFlagEvents),
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};
