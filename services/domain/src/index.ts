export { type UserCommand, userDecider, userStreamId } from './accounts/decide';
export {
  type EmailClaimCommand,
  emailClaimDecider,
  emailClaimStreamId,
  emailTakenError,
  normaliseEmail,
} from './accounts/email-claim';
export type { UserState } from './accounts/user';
export type { Decider, DomainEvent } from './decider';
export * from './errors';
