import type { Encrypted, PlanId, UserEvent } from '@sniplink/contracts';

/** What the user's own stream knows; enough to decide the next command. */
export interface UserState {
  status: 'none' | 'active' | 'erased';
  userId: string | null;
  emailHash: string | null;
  firstName: Encrypted | null;
  lastName: Encrypted | null;
  suspended: boolean;
  subscription: { plan: PlanId } | null;
  linkedIdentities: string[];
}

export const initialUserState = (): UserState => ({
  status: 'none',
  userId: null,
  emailHash: null,
  firstName: null,
  lastName: null,
  suspended: false,
  subscription: null,
  linkedIdentities: [],
});

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        status: 'active',
        userId: event.data.userId,
        emailHash: event.data.emailHash,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
      };
    case 'UserProfileUpdated':
      return { ...state, firstName: event.data.firstName, lastName: event.data.lastName };
    case 'UserIdentityLinked':
      return {
        ...state,
        linkedIdentities: [...state.linkedIdentities, `${event.data.issuer}|${event.data.subjectHash}`],
      };
    case 'UserSuspended':
      return { ...state, suspended: true };
    case 'UserUnsuspended':
      return { ...state, suspended: false };
    case 'SubscriptionStarted':
      return { ...state, subscription: { plan: event.data.plan } };
    case 'SubscriptionEnded':
      return { ...state, subscription: null };
    case 'UserErased':
      // The e-mail hash stays (it is no plaintext): an erasure interrupted half-way can still release the claim.
      return { ...initialUserState(), status: 'erased', userId: state.userId, emailHash: state.emailHash };
    case 'UserPasswordChanged':
      return state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
