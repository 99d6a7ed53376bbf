import {
  PREMIUM_SLUG_RULE,
  type PremiumCategory,
  type PremiumSlugEvent,
  type PremiumTier,
  premiumSlugEvents,
  premiumSlugPattern,
} from '@sniplink/contracts';
import type { Decider } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { isReservedCode } from '../links/codes';

/** What an admin sets on a catalogue entry (admin-console.md section 3). */
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
  /** The buyer: null until purchases exist (the purchase part of issue 22 sets it). */
  ownerId: string | null;
}

export type PremiumSlugCommand =
  | { type: 'AddPremiumSlug'; slugId: string; slug: string; fields: PremiumSlugFields }
  /** Absent fields are unchanged; the same values again add nothing. */
  | { type: 'EditPremiumSlug'; slugId: string; changes: Partial<PremiumSlugFields> }
  | { type: 'DeletePremiumSlug'; slugId: string };

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

const initialState = (): PremiumSlugState => ({ status: 'none', slug: null, fields: null, ownerId: null });

function evolve(state: PremiumSlugState, event: PremiumSlugEvent): PremiumSlugState {
  switch (event.type) {
    case 'PremiumSlugAdded': {
      const { slug, price, category, tier, isAvailable, stripePriceId } = event.data;
      return {
        status: 'listed',
        slug,
        fields: { price, category, tier, isAvailable, stripePriceId },
        ownerId: null,
      };
    }
    case 'PremiumSlugEdited': {
      const { slugId: _id, ...changes } = event.data;
      return state.fields ? { ...state, fields: { ...state.fields, ...changes } } : state;
    }
    case 'PremiumSlugDeleted':
      return { ...state, status: 'deleted' };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
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
    case 'DeletePremiumSlug': {
      listed(state);
      if (state.ownerId !== null)
        throw new ConflictError('CONFLICT', 'This premium slug is owned and cannot be deleted');
      return [{ type: 'PremiumSlugDeleted', data: { slugId, slug: state.slug ?? '' } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

function listed(state: PremiumSlugState): PremiumSlugFields {
  if (state.status !== 'listed' || !state.fields) throw new NotFoundError('No such premium slug');
  return state.fields;
}

export const premiumSlugDecider: Decider<PremiumSlugCommand, PremiumSlugState, PremiumSlugEvent> = {
  events: premiumSlugEvents,
  initialState,
  evolve,
  decide,
};

export const premiumSlugStreamId = (slugId: string) => `premiumslug-${slugId}`;
