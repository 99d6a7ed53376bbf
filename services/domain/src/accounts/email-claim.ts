import { type EmailClaimEvent, emailClaimEvents } from '@sniplink/contracts';
import { type Decider, exhaustive } from '../decider';
import { ConflictError } from '../errors';

/** Who holds an e-mail address now. Stream `email-{HMAC of the normalised address}`. */
export interface EmailClaimState {
  holder: string | null;
}

export type EmailClaimCommand =
  | { type: 'ClaimEmail'; userId: string }
  | { type: 'ReleaseEmail'; userId: string };

export const emailTakenError = () =>
  new ConflictError('EMAIL_TAKEN', 'An account with this e-mail address already exists', 'email');

export const emailClaimDecider: Decider<EmailClaimCommand, EmailClaimState, EmailClaimEvent> = {
  events: emailClaimEvents,
  initialState: () => ({ holder: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'EmailClaimed':
        return { holder: event.data.userId };
      case 'EmailReleased':
        return state.holder === event.data.userId ? { holder: null } : state;
      default:
        return exhaustive(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'ClaimEmail':
        // A retried claim by the same account continues; anyone else is refused.
        if (state.holder === command.userId) return [];
        if (state.holder !== null) throw emailTakenError();
        return [{ type: 'EmailClaimed', data: { userId: command.userId } }];
      case 'ReleaseEmail':
        return state.holder === command.userId
          ? [{ type: 'EmailReleased', data: { userId: command.userId } }]
          : [];
      default:
        return exhaustive(command);
    }
  },
};

/** The form an address is compared in: trimmed, lower-cased (e-mail is unique ignoring case). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
