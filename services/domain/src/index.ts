export {
  FREE_LINK_LIMIT,
  isUserProAt,
  PRO_MONTHLY_LINK_LIMIT,
  type UserCommand,
  userDecider,
  utcMonthOf,
} from './accounts/decide';
export {
  type EmailClaimCommand,
  type EmailClaimState,
  emailClaimDecider,
  emailTakenError,
  normaliseEmail,
} from './accounts/email-claim';
export type { UserState, UserStreamEvent } from './accounts/user';
export {
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
  audiencesOf,
  isAnnouncementFor,
} from './admin/announcements';
export {
  type ConfigCommand,
  type ConfigEntryState,
  configDecider,
} from './admin/config';
export {
  type AdminDocCommand,
  type AdminDocState,
  adminDocDecider,
} from './admin-docs/admin-doc';
export { type ApiKeysCommand, type ApiKeysState, apiKeysDecider } from './api-keys/api-keys';
export { type BillingState, billingDecider, paidPlanOf } from './billing/billing';
export {
  BilledToAnotherUserError,
  type BillingClaimCommand,
  billingClaimDecider,
} from './billing/ownership';
export { currentSubscription, isProAt } from './billing/pro';
export { type PageCopyCommand, type PageCopyState, pageCopyDecider } from './content/page-copy';
export type { Decider, DomainEvent } from './decider';
export * from './errors';
export { type DisclosureCommand, type DisclosureState, disclosureDecider } from './event-console/disclosure';
export {
  decidedStreams,
  type StreamFold,
  stateAfter,
  streamKindOf,
} from './event-console/stream-deciders';
export {
  assertCustomCode,
  CUSTOM_CODE_RULE,
  customCodeProblem,
  fitsEveryonesCodeRule,
  GENERATED_CODE_LENGTH,
  generateCode,
  isReservedCode,
} from './links/codes';
export {
  type CodeReview,
  type LinkCommand,
  type LinkControlChange,
  type LinkState,
  linkDecider,
} from './links/link';
export {
  codeTakenError,
  isCodeFreeFor,
  isPremiumCode,
  type LinkClicks,
  type ShortCodeCommand,
  type ShortCodeState,
  shortCodeDecider,
} from './links/short-code';
export { checkTargetUrl, MAX_URL_LENGTH } from './links/target-url';
export {
  type PremiumBuyerCommand,
  type PremiumBuyerState,
  premiumBuyerDecider,
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
} from './marketplace/premium-slug';
export {
  CodeMatcher,
  type CodeVerdict,
  type ModerationEntry,
  normaliseEntry,
} from './moderation/code-matcher';
export {
  type ListEntryState,
  type ProhibitedWordCommand,
  type ProtectedBrandCommand,
  prohibitedWordDecider,
  protectedBrandDecider,
} from './moderation/lists';
export {
  type ProjectionOperationCommand,
  type ProjectionOperationsState,
  projectionOperationsDecider,
} from './projections-admin/rebuilds';
export {
  type SeoCommand,
  type SeoSettingsState,
  seoSettingsDecider,
  unknownPage as unknownSeoPage,
} from './seo/seo-settings';
export {
  type TicketAuthor,
  type TicketCommand,
  type TicketState,
  ticketDecider,
} from './support/ticket';
export { type WebhooksCommand, type WebhooksState, webhooksDecider } from './webhooks/webhooks';
