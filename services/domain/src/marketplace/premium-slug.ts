import {
  PREMIUM_SLUG_RULE,
  type PremiumCategory,
  type PremiumHoldReleaseReason,
  type PremiumSlugEvent,
  type PremiumTier,
  premiumSlugEvents,
  premiumSlugPattern,
} from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { isReservedCode } from '../links/codes';

/** What an admin sets on a catalogue entry. */
export interface PremiumSlugFields {
  /** Cents. */
  price: number;
  category: PremiumCategory;
  tier: PremiumTier;
  isAvailable: boolean;
  stripePriceId: string | null;
}

/** A premium slug's stream `premiumslug-{id}`, folded. */
export interface PremiumSlugState {
  status: 'none' | 'listed' | 'deleted';
  slug: string | null;
  fields: PremiumSlugFields | null;
  /** The buyer, once a payment for the slug was taken. */
  ownerId: string | null;
  /** The hold the owner bought it with. */
  ownerHoldId: string | null;
  /** The latest hold not yet released nor turned into a sale: active until `expiresAt`. */
  hold: PremiumHold | null;
  /** Payments already settled on this slug (bought with, or refunded): each is applied once. */
  settledPayments: ReadonlySet<string>;
  /** Payments refunded in full: each is recorded refunded once, and never buys the slug after. */
  refundedPayments: ReadonlySet<string>;
  /** Where `/s/{slug}` redirects, as its owner set it; null until then. */
  targetUrl: string | null;
}

export interface PremiumHold {
  holdId: string;
  buyerId: string;
  /** Cents: what the buyer pays. */
  price: number;
  expiresAt: Date;
}

/** A payment the provider took for this slug: who paid, for which hold, and which provider event said so. */
export interface PremiumPayment {
  holdId: string;
  buyerId: string;
  paymentId: string;
  amount: number;
  currency: string;
  providerEventId: string;
}

export type PremiumSlugCommand =
  | { type: 'AddPremiumSlug'; slugId: string; slug: string; fields: PremiumSlugFields }
  /** Absent fields are unchanged; the same values again add nothing. */
  | { type: 'EditPremiumSlug'; slugId: string; changes: Partial<PremiumSlugFields> }
  | { type: 'DeletePremiumSlug'; slugId: string }
  /** Holds the slug for `buyerId` until `expiresAt`; an expired hold of anyone's is released first. */
  | { type: 'HoldPremiumSlug'; slugId: string; holdId: string; buyerId: string; now: Date; expiresAt: Date }
  | { type: 'ReleasePremiumHold'; slugId: string; holdId: string; reason: PremiumHoldReleaseReason }
  /**
   * The provider took `payment`: the buyer owns the slug (once per payment). When the slug went to someone
   * else meanwhile, or the buyer's account is suspended, `PremiumPaymentNotSellable` is thrown: the caller
   * refunds and records the refund.
   */
  | {
      type: 'CompletePremiumPurchase';
      slugId: string;
      payment: PremiumPayment;
      now: Date;
      buyerSuspended: boolean;
    }
  /**
   * The owner sets (a checked URL) or removes (null) the slug's target. Anyone else, or a slug not
   * bought, is a 404; the same target again adds nothing. No plan check: owners keep their slugs.
   */
  | { type: 'SetPremiumSlugTarget'; slugId: string; ownerId: string; url: string | null }
  | {
      type: 'RecordPremiumRefund';
      slugId: string;
      payment: PremiumPayment;
      refundId: string;
      reason: PremiumRefundReason;
    }
  /**
   * The provider says `payment` was refunded in full (its dashboard, or our own refund): recorded once.
   * When the owner bought the slug with it, the slug goes back to the catalogue; a payment not yet
   * applied will never buy it.
   */
  | { type: 'RecordPremiumPurchaseRefund'; slugId: string; payment: PremiumPayment };

export type PremiumRefundReason = 'owned' | 'held' | 'unlisted' | 'suspended';

/** A payment for a slug that is no longer the payer's to have: it is refunded, never applied. */
export class PremiumPaymentNotSellable extends Error {
  override readonly name = 'PremiumPaymentNotSellable';
  constructor(readonly reason: PremiumRefundReason) {
    super(`the premium slug cannot be sold to this payer (${reason})`);
  }
}

/** 403 for a buyer who is not Pro: the body says `requiresPro: true`. */
export class ProRequiredError extends ForbiddenError {
  override readonly details = { requiresPro: true };
  constructor() {
    super('FORBIDDEN', 'A Pro subscription is required to buy premium slugs');
  }
}

/** 409 for a buyer at the limit: the body says how many slugs they own or hold (`currentCount`). */
export class PremiumLimitError extends ConflictError {
  override readonly details: { currentCount: number };
  constructor(currentCount: number, max: number) {
    super('CONFLICT', `You can own at most ${max} premium slugs`);
    this.details = { currentCount };
  }
}

/**
 * The slug as stored: trimmed and lower-cased, 1-20 letters, digits, hyphens or underscores, and not one
 * of the site's reserved words. Blank, malformed or reserved is refused, naming the field.
 */
export function normalisePremiumSlug(raw: string): string {
  const slug = raw.trim().toLowerCase();
  if (slug === '') throw new ValidationError('slug must not be blank', 'slug');
  if (!premiumSlugPattern.test(slug)) throw new ValidationError(`slug must be ${PREMIUM_SLUG_RULE}`, 'slug');
  if (isReservedCode(slug)) throw new ValidationError('This short code is reserved', 'slug');
  return slug;
}

function assertPrice(price: number | undefined): void {
  if (price !== undefined && (!Number.isInteger(price) || price < 0))
    throw new ValidationError('price must be greater than or equal to 0', 'price');
}

const initialState = (): PremiumSlugState => ({
  status: 'none',
  slug: null,
  fields: null,
  ownerId: null,
  ownerHoldId: null,
  hold: null,
  settledPayments: new Set(),
  refundedPayments: new Set(),
  targetUrl: null,
});

/** The hold in force at `now`, if any. */
export function activeHold(state: PremiumSlugState, now: Date): PremiumHold | null {
  return state.hold && state.hold.expiresAt.getTime() > now.getTime() ? state.hold : null;
}

function evolve(state: PremiumSlugState, event: PremiumSlugEvent): PremiumSlugState {
  switch (event.type) {
    case 'PremiumSlugAdded': {
      const { slug, price, category, tier, isAvailable, stripePriceId } = event.data;
      return {
        ...initialState(),
        status: 'listed',
        slug,
        fields: { price, category, tier, isAvailable, stripePriceId },
      };
    }
    case 'PremiumSlugEdited': {
      const { slugId: _id, ...changes } = event.data;
      return state.fields ? { ...state, fields: { ...state.fields, ...changes } } : state;
    }
    case 'PremiumSlugDeleted':
      return { ...state, status: 'deleted' };
    case 'PremiumSlugHeld': {
      const { holdId, buyerId, price, expiresAt } = event.data;
      return { ...state, hold: { holdId, buyerId, price, expiresAt: new Date(expiresAt) } };
    }
    case 'PremiumSlugHoldReleased':
      return state.hold?.holdId === event.data.holdId ? { ...state, hold: null } : state;
    case 'PremiumSlugPurchased':
      return {
        ...state,
        ownerId: event.data.buyerId,
        ownerHoldId: event.data.holdId,
        hold: null,
        settledPayments: new Set(state.settledPayments).add(event.data.paymentId),
      };
    case 'PremiumSlugPaymentRefunded':
      return refunded(state, event.data.paymentId);
    case 'PremiumSlugPurchaseRefunded': {
      const { paymentId, holdId, slugReleased } = event.data;
      return {
        ...refunded(state, paymentId),
        ...(slugReleased ? { ownerId: null, ownerHoldId: null, targetUrl: null } : {}),
        hold: state.hold?.holdId === holdId ? null : state.hold,
      };
    }
    case 'PremiumSlugTargetSet':
      return { ...state, targetUrl: event.data.url };
    default:
      return exhaustive(event);
  }
}

function refunded(state: PremiumSlugState, paymentId: string): PremiumSlugState {
  return {
    ...state,
    settledPayments: new Set(state.settledPayments).add(paymentId),
    refundedPayments: new Set(state.refundedPayments).add(paymentId),
  };
}

function hold(
  command: Extract<PremiumSlugCommand, { type: 'HoldPremiumSlug' }>,
  state: PremiumSlugState,
): PremiumSlugEvent[] {
  const fields = listed(state);
  const { slugId, holdId, buyerId, now } = command;
  if (state.ownerId === buyerId) throw new ConflictError('CONFLICT', 'You already own this premium slug');
  if (state.ownerId !== null)
    throw new ConflictError('CONFLICT', 'This premium slug has already been purchased');
  if (!fields.isAvailable) throw new ConflictError('CONFLICT', 'This premium slug is not for sale');
  const current = activeHold(state, now);
  // The buyer's own hold stands: the caller pays with it (a second tab, a reload).
  if (current?.buyerId === buyerId) return [];
  if (current)
    throw new ConflictError(
      'CONFLICT',
      'Someone else is buying this premium slug; try again in a few minutes',
    );
  const released: PremiumSlugEvent[] = state.hold
    ? [{ type: 'PremiumSlugHoldReleased', data: { slugId, holdId: state.hold.holdId, reason: 'expired' } }]
    : [];
  return [
    ...released,
    {
      type: 'PremiumSlugHeld',
      data: { slugId, holdId, buyerId, price: fields.price, expiresAt: command.expiresAt.toISOString() },
    },
  ];
}

function complete(
  { slugId, payment, now, buyerSuspended }: Extract<PremiumSlugCommand, { type: 'CompletePremiumPurchase' }>,
  state: PremiumSlugState,
): PremiumSlugEvent[] {
  if (state.settledPayments.has(payment.paymentId)) return [];
  // A suspension cancels the buyer's open payments; one that went through all the same buys nothing.
  if (buyerSuspended) throw new PremiumPaymentNotSellable('suspended');
  if (state.status !== 'listed') throw new PremiumPaymentNotSellable('unlisted');
  if (state.ownerId !== null) throw new PremiumPaymentNotSellable('owned');
  const current = activeHold(state, now);
  // A payment after its hold expired still buys the slug when nobody else has taken it meanwhile.
  if (current && current.holdId !== payment.holdId) throw new PremiumPaymentNotSellable('held');
  if (!current && state.fields?.isAvailable === false) throw new PremiumPaymentNotSellable('unlisted');
  return [{ type: 'PremiumSlugPurchased', data: { slugId, ...payment } }];
}

function recordPurchaseRefund(
  { slugId, payment }: Extract<PremiumSlugCommand, { type: 'RecordPremiumPurchaseRefund' }>,
  state: PremiumSlugState,
): PremiumSlugEvent[] {
  if (state.refundedPayments.has(payment.paymentId)) return [];
  const slugReleased = state.ownerId === payment.buyerId && state.ownerHoldId === payment.holdId;
  const data = { slugId, slug: state.slug ?? '', ...payment, slugReleased };
  return [{ type: 'PremiumSlugPurchaseRefunded', data }];
}

function decide(command: PremiumSlugCommand, state: PremiumSlugState): PremiumSlugEvent[] {
  const { slugId } = command;
  switch (command.type) {
    case 'AddPremiumSlug': {
      if (state.status !== 'none') throw new ConflictError('CONFLICT', 'This premium slug already exists');
      assertPrice(command.fields.price);
      const slug = normalisePremiumSlug(command.slug);
      return [{ type: 'PremiumSlugAdded', data: { slugId, slug, ...command.fields } }];
    }
    case 'EditPremiumSlug': {
      const fields = listed(state);
      assertPrice(command.changes.price);
      const changed = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([name, value]) => value !== undefined && fields[name as keyof PremiumSlugFields] !== value,
        ),
      ) as Partial<PremiumSlugFields>;
      return Object.keys(changed).length === 0
        ? []
        : [{ type: 'PremiumSlugEdited', data: { slugId, ...changed } }];
    }
    case 'HoldPremiumSlug':
      return hold(command, state);
    case 'ReleasePremiumHold':
      return state.hold?.holdId === command.holdId
        ? [
            {
              type: 'PremiumSlugHoldReleased',
              data: { slugId, holdId: command.holdId, reason: command.reason },
            },
          ]
        : [];
    case 'CompletePremiumPurchase':
      return complete(command, state);
    case 'SetPremiumSlugTarget': {
      if (state.status !== 'listed' || state.ownerId === null || state.ownerId !== command.ownerId)
        throw new NotFoundError('No such premium slug');
      if (state.targetUrl === command.url) return [];
      const data = { slugId, slug: state.slug ?? '', ownerId: command.ownerId, url: command.url };
      return [{ type: 'PremiumSlugTargetSet', data }];
    }
    case 'RecordPremiumRefund':
      return state.settledPayments.has(command.payment.paymentId)
        ? []
        : [
            {
              type: 'PremiumSlugPaymentRefunded',
              data: { slugId, ...command.payment, refundId: command.refundId, reason: command.reason },
            },
          ];
    case 'RecordPremiumPurchaseRefund':
      return recordPurchaseRefund(command, state);
    case 'DeletePremiumSlug': {
      listed(state);
      if (state.ownerId !== null)
        throw new ConflictError('CONFLICT', 'This premium slug is owned and cannot be deleted');
      return [{ type: 'PremiumSlugDeleted', data: { slugId, slug: state.slug ?? '' } }];
    }
    default:
      return exhaustive(command);
  }
}

function listed(state: PremiumSlugState): PremiumSlugFields {
  if (state.status !== 'listed' || !state.fields) throw new NotFoundError('No such premium slug');
  return state.fields;
}

export const premiumSlugDecider = deciderOf(premiumSlugEvents, { initialState, evolve, decide });
