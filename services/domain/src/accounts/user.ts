import type {
  AdminFlagEvent,
  Encrypted,
  LinkQuotaEvent,
  PaidPlanEvent,
  PlanId,
  UserEvent,
} from '@sniplink/contracts';
import { Map as PersistentMap } from 'immutable';
import type { PaidTerms } from '../billing/pro';
import { exhaustive } from '../decider';

/**
 * Everything on a user's stream: the account's own events, its link allowance, its paid plan's mirror and
 * its admin flag (the `admin-roster` stream's mirror).
 */
export type UserStreamEvent = UserEvent | LinkQuotaEvent | PaidPlanEvent | AdminFlagEvent;

/** What the user's own stream knows; enough to decide the next command. */
export interface UserState {
  status: 'none' | 'active' | 'erased';
  userId: string | null;
  emailHash: string | null;
  firstName: Encrypted | null;
  lastName: Encrypted | null;
  suspended: boolean;
  /** Holds the admin flag (`AdminGranted`, until `AdminRevoked`). */
  isAdmin: boolean;
  /** The `admin-roster` revision the flag was last mirrored from; null while no admin event was ever recorded. */
  adminRosterRevision: number | null;
  /**
   * Whether the holder of the address is known to have asked for this account: it may then be joined to
   * an identity provider's account with the same address (otherwise whoever registered someone else's
   * address first would be handed that person's sign-ins).
   */
  emailVerified: boolean;
  /** Pro granted by an operator (`npm run user:plan`), for as long as it is not taken back. */
  subscription: { plan: PlanId } | null;
  /**
   * The billing stream's subscriptions that have not ended, as last mirrored (`PaidPlanSynced`): Pro
   * through a payment is decided from these at the command's instant (`isProAt`).
   */
  paidPlan: { version: number; subscriptions: (PaidTerms & { plan: PlanId })[] };
  linkedIdentities: string[];
  /**
   * Links counted against the plan now: link id -> the month it was created in. A persistent map: each
   * event adds or removes one entry without copying the others, so folding a stream of many thousand
   * links (an import) costs a step per link, not a copy of every earlier one.
   */
  linkSlots: PersistentMap<string, string>;
  /** Links created per UTC month (`YYYY-MM`); a deletion does not give one back. */
  createdPerMonth: Record<string, number>;
}

export const initialUserState = (): UserState => ({
  status: 'none',
  userId: null,
  emailHash: null,
  firstName: null,
  lastName: null,
  suspended: false,
  isAdmin: false,
  adminRosterRevision: null,
  emailVerified: false,
  subscription: null,
  paidPlan: { version: 0, subscriptions: [] },
  linkedIdentities: [],
  linkSlots: PersistentMap(),
  createdPerMonth: {},
});

export function evolveUser(state: UserState, event: UserStreamEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        status: 'active',
        userId: event.data.userId,
        emailHash: event.data.emailHash,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
        // Provider sign-ups are made only for addresses the provider says it has verified.
        emailVerified: event.data.via === 'oidc',
      };
    case 'UserProfileUpdated':
      return { ...state, firstName: event.data.firstName, lastName: event.data.lastName };
    case 'UserIdentityLinked':
      return {
        ...state,
        linkedIdentities: [...state.linkedIdentities, `${event.data.issuer}|${event.data.subjectHash}`],
      };
    case 'UserEmailVerified':
      return { ...state, emailVerified: true };
    case 'UserSuspended':
      return { ...state, suspended: true };
    case 'UserUnsuspended':
      return { ...state, suspended: false };
    case 'AdminGranted':
      return { ...state, isAdmin: true, adminRosterRevision: event.data.rosterRevision };
    case 'AdminRevoked':
      return { ...state, isAdmin: false, adminRosterRevision: event.data.rosterRevision };
    case 'SubscriptionStarted':
      return { ...state, subscription: { plan: event.data.plan } };
    case 'SubscriptionEnded':
      return { ...state, subscription: null };
    case 'PaidPlanSynced': {
      const { version, subscriptions } = event.data;
      const terms = subscriptions.map(({ plan, status, periodEnd, cancelAtPeriodEnd }) => ({
        plan,
        status,
        periodEnd: new Date(periodEnd),
        cancelAtPeriodEnd,
      }));
      return { ...state, paidPlan: { version, subscriptions: terms } };
    }
    case 'UserErased':
      // The e-mail hash stays (it is no plaintext): an erasure interrupted half-way can still release the claim.
      return { ...initialUserState(), status: 'erased', userId: state.userId, emailHash: state.emailHash };
    case 'UserPasswordChanged':
      return state;
    case 'LinkSlotTaken': {
      const { linkId, month } = event.data;
      const createdPerMonth = { ...state.createdPerMonth, [month]: (state.createdPerMonth[month] ?? 0) + 1 };
      return { ...state, linkSlots: state.linkSlots.set(linkId, month), createdPerMonth };
    }
    case 'LinkSlotReleased': {
      const linkSlots = state.linkSlots.delete(event.data.linkId);
      if (event.data.reason === 'deleted') return { ...state, linkSlots };
      const month = event.data.month;
      const createdPerMonth = {
        ...state.createdPerMonth,
        [month]: Math.max(0, (state.createdPerMonth[month] ?? 0) - 1),
      };
      return { ...state, linkSlots, createdPerMonth };
    }
    default:
      return exhaustive(event);
  }
}
