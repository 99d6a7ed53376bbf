import { type PremiumBuyerEvent, premiumBuyerEvents } from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { PremiumLimitError } from './premium-slug';

/** A buyer's stream `premiumbuyer-{userId}`, folded: what counts towards their limit. */
export interface PremiumBuyerState {
  /** Claimed holds not yet released nor turned into a sale, by hold id. */
  holds: ReadonlyMap<string, { slugId: string; expiresAt: Date }>;
  /** The slugs they own, by the hold they were bought with. */
  owned: ReadonlyMap<string, string>;
}

export type PremiumBuyerCommand =
  /**
   * Claims a place for a hold: refused (409 with the count) when the buyer's slugs owned and held at `now`
   * (one per slug) reach `max`. A second claim for a slug already claimed takes no second place.
   */
  | {
      type: 'ClaimPremiumHold';
      buyerId: string;
      holdId: string;
      slugId: string;
      expiresAt: Date;
      now: Date;
      max: number;
    }
  | {
      type: 'ReleasePremiumClaim';
      buyerId: string;
      holdId: string;
      slugId: string;
      reason: 'expired' | 'payment_failed' | 'canceled' | 'not_held' | 'refunded';
    }
  | { type: 'RecordPremiumSlugOwned'; buyerId: string; holdId: string; slugId: string }
  /** The payment the slug was owned by was refunded: it is theirs no more. */
  | { type: 'ReturnPremiumSlug'; buyerId: string; holdId: string; slugId: string };

/** The slugs a buyer owns or holds at `now`, each counted once. */
export function premiumSlugsCounted(state: PremiumBuyerState, now: Date): number {
  const slugs = new Set(state.owned.values());
  for (const hold of state.holds.values())
    if (hold.expiresAt.getTime() > now.getTime()) slugs.add(hold.slugId);
  return slugs.size;
}

const initialState = (): PremiumBuyerState => ({ holds: new Map(), owned: new Map() });

function evolve(state: PremiumBuyerState, event: PremiumBuyerEvent): PremiumBuyerState {
  const holds = new Map(state.holds);
  switch (event.type) {
    case 'PremiumBuyerHoldClaimed':
      holds.set(event.data.holdId, { slugId: event.data.slugId, expiresAt: new Date(event.data.expiresAt) });
      return { ...state, holds };
    case 'PremiumBuyerHoldReleased':
      holds.delete(event.data.holdId);
      return { ...state, holds };
    case 'PremiumBuyerSlugOwned':
      holds.delete(event.data.holdId);
      return { holds, owned: new Map(state.owned).set(event.data.holdId, event.data.slugId) };
    case 'PremiumBuyerSlugReturned': {
      const owned = new Map(state.owned);
      owned.delete(event.data.holdId);
      return { ...state, owned };
    }
    default:
      return exhaustive(event);
  }
}

function decide(command: PremiumBuyerCommand, state: PremiumBuyerState): PremiumBuyerEvent[] {
  const { buyerId, holdId, slugId } = command;
  switch (command.type) {
    case 'ClaimPremiumHold': {
      if (state.holds.has(holdId)) return [];
      const counted = premiumSlugsCounted(state, command.now);
      const again = [...state.holds.values()].some(
        (hold) => hold.slugId === slugId && hold.expiresAt.getTime() > command.now.getTime(),
      );
      if (!again && counted >= command.max) throw new PremiumLimitError(counted, command.max);
      return [
        {
          type: 'PremiumBuyerHoldClaimed',
          data: { buyerId, holdId, slugId, expiresAt: command.expiresAt.toISOString() },
        },
      ];
    }
    case 'ReleasePremiumClaim':
      return state.holds.has(holdId)
        ? [{ type: 'PremiumBuyerHoldReleased', data: { buyerId, holdId, slugId, reason: command.reason } }]
        : [];
    case 'RecordPremiumSlugOwned':
      return state.owned.has(holdId)
        ? []
        : [{ type: 'PremiumBuyerSlugOwned', data: { buyerId, holdId, slugId } }];
    case 'ReturnPremiumSlug':
      return state.owned.has(holdId)
        ? [{ type: 'PremiumBuyerSlugReturned', data: { buyerId, holdId, slugId } }]
        : [];
    default:
      return exhaustive(command);
  }
}

export const premiumBuyerDecider = deciderOf(premiumBuyerEvents, { initialState, evolve, decide });
