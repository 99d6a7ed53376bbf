import type {
  DomainEvent,
  LinkEvent,
  PremiumBuyerEvent,
  PremiumSlugEvent,
  ShortCodeEvent,
  TicketEvent,
  UserEvent,
} from '@sniplink/contracts';

type Of<Event extends DomainEvent, Type extends Event['type']> = Extract<Event, { type: Type }>;

/**
 * Builders of one stream's events, typed by its contract: each makes an event of its type from defaults
 * a specification overrides field by field, so a test names only what it is about.
 */
function buildersOf<Event extends DomainEvent>() {
  return <Type extends Event['type']>(type: Type, defaults: Of<Event, Type>['data']) =>
    (overrides: Partial<Of<Event, Type>['data']> = {}): Of<Event, Type> =>
      ({ type, data: { ...(defaults as object), ...overrides } }) as Of<Event, Type>;
}

/** Ids a specification can read: an owner, a buyer, a ticket, a link, a slug, a hold. */
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

const user = buildersOf<UserEvent>();
export const userEvent = {
  registered: user('UserRegistered', {
    userId: specIds.owner,
    email: 'enc:v1:email',
    firstName: null,
    lastName: null,
    profileImageUrl: null,
    emailHash: 'email-hash',
    via: 'password',
  }),
  subscriptionStarted: user('SubscriptionStarted', {
    plan: 'monthly',
    provider: 'operator',
    reference: null,
  }),
  suspended: user('UserSuspended', { reason: null }),
};

const ticket = buildersOf<TicketEvent>();
export const ticketEvent = {
  opened: ticket('TicketOpened', {
    ticketId: specIds.ticket,
    userId: specIds.owner,
    subject: 'enc:v1:subject',
    messageId: specIds.message,
    message: 'enc:v1:message',
    priority: 'medium',
  }),
  messagePosted: ticket('TicketMessagePosted', {
    messageId: specIds.message,
    message: 'enc:v1:message',
    fromStaff: false,
    authorId: specIds.owner,
  }),
  assigned: ticket('TicketAssigned', { assigneeId: specIds.admin }),
  statusChanged: ticket('TicketStatusChanged', { status: 'in_progress', by: 'staff', autoCloseAfter: null }),
};

const link = buildersOf<LinkEvent>();
export const linkEvent = {
  created: link('LinkCreated', {
    linkId: specIds.link,
    ownerId: specIds.owner,
    code: 'abc123',
    originalUrl: 'https://example.com/',
    title: null,
    origin: 'dashboard',
  }),
  codeChanged: link('LinkCodeChanged', { code: 'new-code', previousCode: 'abc123' }),
};

const shortCode = buildersOf<ShortCodeEvent>();
export const shortCodeEvent = {
  claimed: shortCode('ShortCodeClaimed', { code: 'abc123', ownerId: specIds.owner, linkId: specIds.link }),
  released: shortCode('ShortCodeReleased', { linkId: specIds.link, reason: 'never-clicked' }),
  retired: shortCode('ShortCodeRetired', { linkId: specIds.link, reason: 'clicked' }),
};

const premiumSlug = buildersOf<PremiumSlugEvent>();
export const premiumSlugEvent = {
  added: premiumSlug('PremiumSlugAdded', {
    slugId: specIds.slug,
    slug: 'deals',
    price: 2500,
    category: 'common-words',
    tier: 'standard',
    isAvailable: true,
    stripePriceId: null,
  }),
  held: premiumSlug('PremiumSlugHeld', {
    slugId: specIds.slug,
    holdId: specIds.hold,
    buyerId: specIds.buyer,
    price: 2500,
    expiresAt: '2026-03-01T10:15:00.000Z',
  }),
  holdReleased: premiumSlug('PremiumSlugHoldReleased', {
    slugId: specIds.slug,
    holdId: specIds.hold,
    reason: 'canceled',
  }),
  purchased: premiumSlug('PremiumSlugPurchased', {
    slugId: specIds.slug,
    holdId: specIds.hold,
    buyerId: specIds.buyer,
    paymentId: 'pay_1',
    amount: 2500,
    currency: 'usd',
    providerEventId: 'evt_1',
  }),
  paymentRefunded: premiumSlug('PremiumSlugPaymentRefunded', {
    slugId: specIds.slug,
    holdId: specIds.hold,
    buyerId: specIds.buyer,
    paymentId: 'pay_1',
    amount: 2500,
    currency: 'usd',
    refundId: 're_1',
    providerEventId: 'evt_1',
    reason: 'owned',
  }),
};

const premiumBuyer = buildersOf<PremiumBuyerEvent>();
export const premiumBuyerEvent = {
  holdClaimed: premiumBuyer('PremiumBuyerHoldClaimed', {
    buyerId: specIds.buyer,
    holdId: specIds.hold,
    slugId: specIds.slug,
    expiresAt: '2026-03-01T10:15:00.000Z',
  }),
  holdReleased: premiumBuyer('PremiumBuyerHoldReleased', {
    buyerId: specIds.buyer,
    holdId: specIds.hold,
    slugId: specIds.slug,
    reason: 'canceled',
  }),
  slugOwned: premiumBuyer('PremiumBuyerSlugOwned', {
    buyerId: specIds.buyer,
    holdId: specIds.hold,
    slugId: specIds.slug,
  }),
};
