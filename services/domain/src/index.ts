export {
  FREE_LINK_LIMIT,
  isUserProAt,
  PRO_MONTHLY_LINK_LIMIT,
  type UserCommand,
  userDecider,
  userStreamId,
  utcMonthOf,
} from './accounts/decide';
export {
  type EmailClaimCommand,
  emailClaimDecider,
  emailClaimStreamId,
  emailTakenError,
  normaliseEmail,
} from './accounts/email-claim';
export type { UserState, UserStreamEvent } from './accounts/user';
export {
  ADMIN_ROSTER_STREAM,
  type AdminRosterCommand,
  type AdminRosterState,
  adminRosterDecider,
} from './admin/admin-roster';
export {
  type AnnouncementCommand,
  type AnnouncementContent,
  type AnnouncementState,
  type AnnouncementViewer,
  announcementDecider,
  announcementDismissalsDecider,
  announcementDismissalsStreamId,
  announcementStreamId,
  audiencesOf,
  isAnnouncementFor,
} from './admin/announcements';
export {
  type ConfigCommand,
  type ConfigEntryState,
  configDecider,
  configStreamId,
} from './admin/config';
export { type BillingState, billingDecider, billingStreamId, paidPlanOf } from './billing/billing';
export {
  BilledToAnotherUserError,
  type BillingClaimCommand,
  billingClaimDecider,
  billingCustomerStreamId,
  subscriptionClaimStreamId,
} from './billing/ownership';
export { currentSubscription, isProAt } from './billing/pro';
export type { Decider, DomainEvent } from './decider';
export * from './errors';
export {
  assertCustomCode,
  CUSTOM_CODE_RULE,
  customCodeProblem,
  GENERATED_CODE_LENGTH,
  generateCode,
  isReservedCode,
} from './links/codes';
export { type LinkCommand, type LinkState, linkDecider, linkStreamId } from './links/link';
export {
  codeTakenError,
  isCodeFreeFor,
  isPremiumCode,
  type LinkClicks,
  type ShortCodeCommand,
  type ShortCodeState,
  shortCodeDecider,
  shortCodeStreamId,
} from './links/short-code';
export { checkTargetUrl, MAX_URL_LENGTH } from './links/target-url';
export {
  type PremiumBuyerCommand,
  type PremiumBuyerState,
  premiumBuyerDecider,
  premiumBuyerStreamId,
  premiumSlugsCounted,
} from './marketplace/premium-buyer';
export {
  activeHold,
  normalisePremiumSlug,
  PremiumLimitError,
  type PremiumPayment,
  PremiumPaymentNotSellable,
  type PremiumRefundReason,
  type PremiumSlugCommand,
  type PremiumSlugFields,
  type PremiumSlugState,
  ProRequiredError,
  premiumSlugDecider,
  premiumSlugStreamId,
} from './marketplace/premium-slug';
export {
  type TicketAuthor,
  type TicketCommand,
  type TicketState,
  ticketDecider,
  ticketStreamId,
} from './support/ticket';
