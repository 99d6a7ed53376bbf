import type {
  AdminFlagEvent,
  AdminRosterEvent,
  AnnouncementDismissalEvent,
  AnnouncementEvent,
  BillingClaimEvent,
  BillingEvent,
  ConfigEvent,
  EmailClaimEvent,
  LinkEvent,
  LinkQuotaEvent,
  PaidPlanEvent,
  PremiumBuyerEvent,
  PremiumSlugEvent,
  SeoEvent,
  ShortCodeEvent,
  SubscriptionFacts,
  TicketEvent,
  UserEvent,
} from '@sniplink/contracts';
import type { AdminDocEvent } from '@sniplink/contracts/admin-docs/events';
import type { ProhibitedWordEvent, ProtectedBrandEvent } from '@sniplink/contracts/moderation/events';
import type { RecordedEvent } from '@sniplink/platform';
import { v7 as uuidv7 } from 'uuid';
// The app's whole registry: the shared features' events and those features declare in their own module.
import { eventRegistry } from '../../services/standalone/src/features';

/** Every event the contracts declare, as `{ type, data }`. */
export type ContractEvent =
  | UserEvent
  | EmailClaimEvent
  | LinkEvent
  | ShortCodeEvent
  | LinkQuotaEvent
  | BillingEvent
  | PaidPlanEvent
  | BillingClaimEvent
  | ConfigEvent
  | AnnouncementEvent
  | AnnouncementDismissalEvent
  | AdminFlagEvent
  | AdminRosterEvent
  | PremiumSlugEvent
  | PremiumBuyerEvent
  | SeoEvent
  | TicketEvent
  | AdminDocEvent
  | ProhibitedWordEvent
  | ProtectedBrandEvent;
type EventType = ContractEvent['type'];
type EventNamed<Type extends EventType> = Extract<ContractEvent, { type: Type }>;
type DataOf<Type extends EventType> = EventNamed<Type>['data'];

/**
 * A builder of one event type: `defaults` gives the data a test does not care about (fresh ids each
 * call); the test names only what it is about.
 */
function builder<Type extends EventType>(type: Type, defaults: () => DataOf<Type>) {
  return (data: Partial<DataOf<Type>> = {}): EventNamed<Type> =>
    ({ type, data: { ...defaults(), ...data } }) as unknown as EventNamed<Type>;
}

/** Ciphertext-shaped text: what an `encrypted` field holds when the test never decrypts it. */
const cipher = (text: string) => `enc:${Buffer.from(text).toString('base64url')}`;
const FEB_2027 = '2027-02-01T00:00:00.000Z';
const subscriptionFacts = (): SubscriptionFacts => {
  const id = uuidv7();
  return {
    providerEventId: `evt_${id}`,
    subscriptionId: `sub_${id}`,
    customerId: `cus_${id}`,
    plan: 'monthly',
    status: 'active',
    periodEnd: FEB_2027,
    cancelAtPeriodEnd: false,
    amount: 200,
    currency: 'usd',
  };
};
const premiumPayment = () => {
  const paymentId = `pi_${uuidv7()}`;
  return {
    slugId: uuidv7(),
    holdId: uuidv7(),
    buyerId: uuidv7(),
    paymentId,
    amount: 2500,
    currency: 'usd',
    providerEventId: `evt_${paymentId}`,
  };
};
const premiumHold = () => ({ buyerId: uuidv7(), holdId: uuidv7(), slugId: uuidv7() });

/**
 * Fixed ids a specification passes to the builders where its expected events name them: readable in a
 * failure's diff, and the same in the history given and the events expected.
 */
export const specIds = {
  owner: '01890000-0000-7000-8000-00000000a001',
  buyer: '01890000-0000-7000-8000-00000000a002',
  admin: '01890000-0000-7000-8000-00000000a003',
  ticket: '01890000-0000-7000-8000-00000000b001',
  message: '01890000-0000-7000-8000-00000000b002',
  link: '01890000-0000-7000-8000-00000000c001',
  slug: '01890000-0000-7000-8000-00000000d001',
  hold: '01890000-0000-7000-8000-00000000d002',
} as const;

/** One builder per event type the contracts declare, named after it: `events.ticketOpened({ ticketId })`. */
export const events = {
  // A user's stream `user-{userId}`, and the e-mail claims.
  userRegistered: builder('UserRegistered', () => ({
    userId: uuidv7(),
    email: cipher('someone@example.com'),
    firstName: null,
    lastName: null,
    profileImageUrl: null,
    emailHash: `hash-${uuidv7()}`,
    via: 'password',
  })),
  userProfileUpdated: builder('UserProfileUpdated', () => ({ firstName: null, lastName: null })),
  userPasswordChanged: builder('UserPasswordChanged', () => ({ via: 'change' })),
  userIdentityLinked: builder('UserIdentityLinked', () => ({
    issuer: 'https://id.example',
    subjectHash: 'subject-hash',
  })),
  userEmailVerified: builder('UserEmailVerified', () => ({ emailHash: 'email-hash' })),
  userSuspended: builder('UserSuspended', () => ({ reason: null })),
  userUnsuspended: builder('UserUnsuspended', () => ({})),
  subscriptionStarted: builder('SubscriptionStarted', () => ({
    plan: 'monthly',
    provider: 'operator',
    reference: null,
  })),
  subscriptionEnded: builder('SubscriptionEnded', () => ({ reason: 'operator' })),
  userErased: builder('UserErased', () => ({})),
  emailClaimed: builder('EmailClaimed', () => ({ userId: uuidv7() })),
  emailReleased: builder('EmailReleased', () => ({ userId: uuidv7() })),

  // Links, their short codes and the monthly link quota.
  linkCreated: builder('LinkCreated', () => {
    const code = `c${uuidv7().slice(-7)}`;
    return {
      linkId: uuidv7(),
      ownerId: uuidv7(),
      code,
      originalUrl: `https://example.com/${code}`,
      title: null,
      origin: 'dashboard',
    };
  }),
  linkRetitled: builder('LinkRetitled', () => ({ title: null })),
  linkRetargeted: builder('LinkRetargeted', () => ({ originalUrl: 'https://example.com/elsewhere' })),
  linkCodeChanged: builder('LinkCodeChanged', () => ({ code: 'new-code', previousCode: 'old-code' })),
  linkOwnerChanged: builder('LinkOwnerChanged', () => ({ ownerId: uuidv7(), previousOwnerId: uuidv7() })),
  linkDeleted: builder('LinkDeleted', () => ({})),
  linkPasswordSet: builder('LinkPasswordSet', () => ({ passwordId: uuidv7() })),
  linkPasswordRemoved: builder('LinkPasswordRemoved', () => ({})),
  linkExpiryChanged: builder('LinkExpiryChanged', () => ({ expiresAt: '2030-01-01T00:00:00.000Z' })),
  linkClickLimitChanged: builder('LinkClickLimitChanged', () => ({ maxClicks: 10 })),
  linkFallbackChanged: builder('LinkFallbackChanged', () => ({ fallbackUrl: 'https://example.com/over' })),
  linkPaused: builder('LinkPaused', () => ({})),
  linkUnpaused: builder('LinkUnpaused', () => ({})),
  linkTagsChanged: builder('LinkTagsChanged', () => ({ tags: ['sales'] })),
  linkRulesChanged: builder('LinkRulesChanged', () => ({
    rules: [{ when: { country: ['FR'] }, url: 'https://example.fr/' }],
  })),
  linkCodeApproved: builder('LinkCodeApproved', () => ({
    approvalId: uuidv7(),
    code: 'brand-code',
    notes: null,
  })),
  linkCodeRejected: builder('LinkCodeRejected', () => ({
    approvalId: uuidv7(),
    code: 'brand-code',
    reason: 'Brand protection violation',
  })),
  shortCodeClaimed: builder('ShortCodeClaimed', () => ({
    code: `c${uuidv7().slice(-7)}`,
    ownerId: uuidv7(),
    linkId: uuidv7(),
  })),
  shortCodeRetired: builder('ShortCodeRetired', () => ({ linkId: uuidv7() })),
  shortCodeReleased: builder('ShortCodeReleased', () => ({ linkId: uuidv7(), reason: 'abandoned' })),
  shortCodeOwnerChanged: builder('ShortCodeOwnerChanged', () => ({
    ownerId: uuidv7(),
    previousOwnerId: uuidv7(),
  })),
  shortCodeReservedForPremiumSlug: builder('ShortCodeReservedForPremiumSlug', () => ({
    code: `p${uuidv7().slice(-7)}`,
    slugId: uuidv7(),
  })),
  shortCodePremiumSlugReleased: builder('ShortCodePremiumSlugReleased', () => ({
    slugId: uuidv7(),
    reason: 'deleted',
  })),
  linkSlotTaken: builder('LinkSlotTaken', () => ({ linkId: uuidv7(), month: '2027-01' })),
  linkSlotReleased: builder('LinkSlotReleased', () => ({
    linkId: uuidv7(),
    month: '2027-01',
    reason: 'deleted',
  })),

  // Billing: a user's billing stream `billing-{userId}`, its mirror on the user stream, the claims.
  billingCustomerRecorded: builder('BillingCustomerRecorded', () => ({
    provider: 'stripe',
    customerId: `cus_${uuidv7()}`,
  })),
  subscriptionActivated: builder('SubscriptionActivated', subscriptionFacts),
  subscriptionRenewed: builder('SubscriptionRenewed', subscriptionFacts),
  paymentFailed: builder('PaymentFailed', () => ({ ...subscriptionFacts(), status: 'past_due' })),
  paymentRecovered: builder('PaymentRecovered', subscriptionFacts),
  cancellationScheduled: builder('CancellationScheduled', () => ({
    ...subscriptionFacts(),
    cancelAtPeriodEnd: true,
  })),
  cancellationWithdrawn: builder('CancellationWithdrawn', subscriptionFacts),
  subscriptionUpdated: builder('SubscriptionUpdated', subscriptionFacts),
  subscriptionCanceled: builder('SubscriptionCanceled', () => ({
    ...subscriptionFacts(),
    status: 'canceled',
  })),
  paidPlanSynced: builder('PaidPlanSynced', () => ({ version: 1, subscriptions: [] })),
  billingCustomerClaimed: builder('BillingCustomerClaimed', () => ({
    provider: 'stripe',
    customerId: `cus_${uuidv7()}`,
    userId: uuidv7(),
  })),
  subscriptionClaimed: builder('SubscriptionClaimed', () => ({
    subscriptionId: `sub_${uuidv7()}`,
    customerId: `cus_${uuidv7()}`,
    userId: uuidv7(),
  })),

  // Admin console: settings, announcements, the admin flag and roster.
  configEntryCreated: builder('ConfigEntryCreated', () => ({
    key: 'some.key',
    value: '1',
    description: null,
  })),
  configEntryUpdated: builder('ConfigEntryUpdated', () => ({
    key: 'some.key',
    value: '2',
    description: null,
    previousValue: '1',
  })),
  configEntryDeleted: builder('ConfigEntryDeleted', () => ({ key: 'some.key', previousValue: '1' })),
  announcementPublished: builder('AnnouncementPublished', () => ({
    announcementId: uuidv7(),
    title: 'A title',
    message: 'A message',
    type: 'info',
    targetAudience: 'all',
    isActive: true,
  })),
  announcementSwitchedOff: builder('AnnouncementSwitchedOff', () => ({ announcementId: uuidv7() })),
  announcementSwitchedOn: builder('AnnouncementSwitchedOn', () => ({ announcementId: uuidv7() })),
  announcementDismissed: builder('AnnouncementDismissed', () => ({ announcementId: uuidv7() })),
  adminGranted: builder('AdminGranted', () => ({ by: 'operator', rosterRevision: 0 })),
  adminRevoked: builder('AdminRevoked', () => ({ by: 'operator', rosterRevision: 0 })),
  adminRosterJoined: builder('AdminRosterJoined', () => ({ userId: uuidv7(), by: 'operator' })),
  adminRosterLeft: builder('AdminRosterLeft', () => ({ userId: uuidv7(), by: 'operator' })),

  // Premium slugs `premiumslug-{slugId}` and their buyers.
  premiumSlugAdded: builder('PremiumSlugAdded', () => ({
    slugId: uuidv7(),
    slug: `s${uuidv7().slice(-7)}`,
    price: 2500,
    category: 'commerce',
    tier: 'standard',
    isAvailable: true,
    stripePriceId: null,
  })),
  premiumSlugEdited: builder('PremiumSlugEdited', () => ({ slugId: uuidv7() })),
  premiumSlugDeleted: builder('PremiumSlugDeleted', () => ({ slugId: uuidv7(), slug: 'deleted' })),
  premiumSlugHeld: builder('PremiumSlugHeld', () => ({
    slugId: uuidv7(),
    holdId: uuidv7(),
    buyerId: uuidv7(),
    price: 2500,
    expiresAt: FEB_2027,
  })),
  premiumSlugHoldReleased: builder('PremiumSlugHoldReleased', () => ({
    slugId: uuidv7(),
    holdId: uuidv7(),
    reason: 'expired',
  })),
  premiumSlugPurchased: builder('PremiumSlugPurchased', premiumPayment),
  premiumSlugPaymentRefunded: builder('PremiumSlugPaymentRefunded', () => ({
    ...premiumPayment(),
    refundId: `re_${uuidv7()}`,
    reason: 'owned',
  })),
  premiumSlugPurchaseRefunded: builder('PremiumSlugPurchaseRefunded', () => ({
    ...premiumPayment(),
    slug: 'refunded',
    slugReleased: true,
  })),
  premiumSlugTargetSet: builder('PremiumSlugTargetSet', () => ({
    slugId: uuidv7(),
    slug: 'target',
    ownerId: uuidv7(),
    url: null,
  })),
  premiumBuyerHoldClaimed: builder('PremiumBuyerHoldClaimed', () => ({
    ...premiumHold(),
    expiresAt: FEB_2027,
  })),
  premiumBuyerHoldReleased: builder('PremiumBuyerHoldReleased', () => ({
    ...premiumHold(),
    reason: 'expired',
  })),
  premiumBuyerSlugOwned: builder('PremiumBuyerSlugOwned', premiumHold),
  premiumBuyerSlugReturned: builder('PremiumBuyerSlugReturned', premiumHold),

  // Support tickets `ticket-{ticketId}`.
  ticketOpened: builder('TicketOpened', () => ({
    ticketId: uuidv7(),
    userId: uuidv7(),
    subject: cipher('A subject'),
    messageId: uuidv7(),
    message: cipher('A message'),
    priority: 'medium',
  })),
  ticketMessagePosted: builder('TicketMessagePosted', () => ({
    messageId: uuidv7(),
    message: cipher('A message'),
    fromStaff: false,
    authorId: uuidv7(),
  })),
  ticketAssigned: builder('TicketAssigned', () => ({ assigneeId: uuidv7() })),
  ticketStatusChanged: builder('TicketStatusChanged', () => ({
    status: 'in_progress',
    by: 'staff',
    autoCloseAfter: null,
  })),

  // Moderation: the admin's lists, one stream per entry.
  prohibitedWordAdded: builder('ProhibitedWordAdded', () => ({
    wordId: uuidv7(),
    word: 'scam',
    category: 'offensive',
    severity: 'medium',
  })),
  prohibitedWordSwitchedOff: builder('ProhibitedWordSwitchedOff', () => ({ wordId: uuidv7() })),
  prohibitedWordSwitchedOn: builder('ProhibitedWordSwitchedOn', () => ({ wordId: uuidv7() })),
  prohibitedWordDeleted: builder('ProhibitedWordDeleted', () => ({ wordId: uuidv7() })),
  protectedBrandAdded: builder('ProtectedBrandAdded', () => ({
    brandId: uuidv7(),
    brand: 'Acme',
    category: 'tech',
    requiresApproval: true,
  })),
  protectedBrandSwitchedOff: builder('ProtectedBrandSwitchedOff', () => ({ brandId: uuidv7() })),
  protectedBrandSwitchedOn: builder('ProtectedBrandSwitchedOn', () => ({ brandId: uuidv7() })),
  protectedBrandDeleted: builder('ProtectedBrandDeleted', () => ({ brandId: uuidv7() })),
} satisfies Record<string, (data?: never) => ContractEvent>;

/** An event as a test places it in the log: on its stream, optionally at a time, by an actor, with metadata. */
export interface GivenEvent {
  streamId: string;
  event: ContractEvent;
  occurredAt?: Date;
  actorId?: string | null;
  /** The request or job it is part of (none unless given). */
  correlationId?: string | null;
  metadata?: Record<string, unknown>;
}

/** `events` on `streamId`, in order. */
export const onStream = (streamId: string, ...streamEvents: ContractEvent[]): GivenEvent[] =>
  streamEvents.map((event) => ({ streamId, event }));

/** The first instant events are recorded at when a test names none: one second apart from then on. */
const FIRST_RECORDED_AT = Date.UTC(2027, 0, 1);

/**
 * The events as the store records them, in the order given: each stream's revisions from 0, the log's
 * positions one after the other, and (unless given) one second apart from 2027-01-01 00:00 UTC. The data
 * goes through the registry as an append's does, so an event off its schema fails here.
 */
export function recorded(given: readonly GivenEvent[]): RecordedEvent[] {
  const revisions = new Map<string, bigint>();
  return given.map(
    ({ streamId, event, occurredAt, actorId = null, correlationId = null, metadata = {} }, index) => {
      const revision = revisions.get(streamId) ?? 0n;
      revisions.set(streamId, revision + 1n);
      const stored = eventRegistry.toStored(event.type, event.data);
      return {
        id: uuidv7(),
        type: event.type,
        streamId,
        revision,
        globalPosition: { commit: BigInt(index), prepare: BigInt(index) },
        occurredAt: occurredAt ?? new Date(FIRST_RECORDED_AT + index * 1_000),
        actorId,
        correlationId,
        causationId: null,
        schemaVersion: stored.schemaVersion,
        data: stored.data,
        metadata,
      };
    },
  );
}
