import { type ShortCodeEvent, shortCodeEvents } from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError } from '../errors';

/**
 * One code, compared ignoring case. `linkId` is the link it points to now; `usedBy` is the account whose
 * link on it was clicked: that account keeps the code for good, nobody else ever gets it (a shared link
 * cannot be hijacked). A code given up before anyone followed it is free again.
 */
export interface ShortCodeState {
  holder: string | null;
  linkId: string | null;
  usedBy: string | null;
  /** The premium catalogue's slug on this code: while set, no link may take it. */
  premiumSlugId: string | null;
}

/**
 * What the click analytics know of the link giving the code up: `counted` clicks (humans or bots),
 * `none` (no click counted, and none waiting to be), or `unconfirmed` (clicks wait to be counted, or
 * the read model could not be asked). The link could only have been clicked on this code while it held
 * it, so `none` means the code was never followed.
 */
export type LinkClicks = 'counted' | 'none' | 'unconfirmed';

export type ShortCodeCommand =
  | { type: 'ClaimCode'; code: string; ownerId: string; linkId: string }
  /** The link moves off the code (code changed, link deleted): kept for its owner, or freed. */
  | { type: 'GiveUpCode'; linkId: string; clicks: LinkClicks }
  /** A claim whose link was never created. */
  | { type: 'ReleaseCode'; linkId: string }
  | { type: 'TransferCode'; ownerId: string; newOwnerId: string }
  /** A premium slug claims the code: only a code no link holds, nor any account keeps. */
  | { type: 'ReserveForPremiumSlug'; code: string; slugId: string }
  | { type: 'ReleasePremiumSlug'; slugId: string; reason: 'deleted' | 'abandoned' };

export const codeTakenError = () =>
  new ConflictError('SHORT_CODE_TAKEN', 'This short code is already taken', 'shortCode');

const initialState = (): ShortCodeState => ({
  holder: null,
  linkId: null,
  usedBy: null,
  premiumSlugId: null,
});

function evolve(state: ShortCodeState, event: ShortCodeEvent): ShortCodeState {
  switch (event.type) {
    case 'ShortCodeClaimed':
      return { ...state, holder: event.data.ownerId, linkId: event.data.linkId };
    case 'ShortCodeRetired':
      return { ...state, linkId: null, usedBy: state.holder };
    case 'ShortCodeReleased':
      return { ...state, holder: state.usedBy, linkId: null };
    case 'ShortCodeReservedForPremiumSlug':
      return { ...state, premiumSlugId: event.data.slugId };
    case 'ShortCodePremiumSlugReleased':
      return { ...state, premiumSlugId: null };
    case 'ShortCodeOwnerChanged':
      return {
        ...state,
        holder: event.data.ownerId,
        usedBy: state.usedBy === null ? null : event.data.ownerId,
      };
    default:
      return exhaustive(event);
  }
}

function decide(command: ShortCodeCommand, state: ShortCodeState): ShortCodeEvent[] {
  switch (command.type) {
    case 'ClaimCode': {
      if (state.linkId === command.linkId) return []; // a retried claim continues
      if (!isCodeFreeFor(state, command.ownerId)) throw codeTakenError();
      const { code, ownerId, linkId } = command;
      return [{ type: 'ShortCodeClaimed', data: { code, ownerId, linkId } }];
    }
    case 'GiveUpCode':
      return state.linkId === command.linkId ? [giveUp(state, command.linkId, command.clicks)] : [];
    case 'ReleaseCode':
      return state.linkId === command.linkId
        ? [{ type: 'ShortCodeReleased', data: { linkId: command.linkId, reason: 'abandoned' } }]
        : [];
    case 'TransferCode':
      return state.holder === command.ownerId
        ? [
            {
              type: 'ShortCodeOwnerChanged',
              data: { ownerId: command.newOwnerId, previousOwnerId: command.ownerId },
            },
          ]
        : [];
    case 'ReserveForPremiumSlug':
      return reserveForPremiumSlug(state, command.code, command.slugId);
    case 'ReleasePremiumSlug':
      return state.premiumSlugId === command.slugId
        ? [
            {
              type: 'ShortCodePremiumSlugReleased',
              data: { slugId: command.slugId, reason: command.reason },
            },
          ]
        : [];
    default:
      return exhaustive(command);
  }
}

/** A retried reservation continues; a code in the catalogue, on a link or kept by an account is refused. */
function reserveForPremiumSlug(state: ShortCodeState, code: string, slugId: string): ShortCodeEvent[] {
  if (state.premiumSlugId === slugId) return [];
  if (state.premiumSlugId !== null)
    throw new ConflictError('CONFLICT', 'This slug is already in the premium catalogue', 'slug');
  if (state.linkId !== null || state.holder !== null)
    throw new ConflictError(
      'CONFLICT',
      'A link holds this short code, so it cannot be a premium slug',
      'slug',
    );
  return [{ type: 'ShortCodeReservedForPremiumSlug', data: { code, slugId } }];
}

/** Kept when anyone may have followed the code (when in doubt, kept); freed only when no one ever did. */
function giveUp(state: ShortCodeState, linkId: string, clicks: LinkClicks): ShortCodeEvent {
  if (state.usedBy !== null) return { type: 'ShortCodeRetired', data: { linkId, reason: 'clicked-before' } };
  if (clicks === 'none') return { type: 'ShortCodeReleased', data: { linkId, reason: 'never-clicked' } };
  const reason = clicks === 'counted' ? 'clicked' : 'unconfirmed';
  return { type: 'ShortCodeRetired', data: { linkId, reason } };
}

export const shortCodeDecider = deciderOf(shortCodeEvents, { initialState, evolve, decide });

/** Whether `ownerId` may put a new link on this code now. */
export const isCodeFreeFor = (state: ShortCodeState, ownerId: string | null) =>
  state.linkId === null &&
  state.premiumSlugId === null &&
  (state.holder === null || state.holder === ownerId);

/** Whether the premium catalogue holds the code (a link is told it is reserved). */
export const isPremiumCode = (state: ShortCodeState) => state.premiumSlugId !== null;
