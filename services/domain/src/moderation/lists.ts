import type { BrandCategory, WordCategory, WordSeverity } from '@sniplink/contracts/moderation/api';
import {
  type ProhibitedWordEvent,
  type ProtectedBrandEvent,
  prohibitedWordEvents,
  protectedBrandEvents,
} from '@sniplink/contracts/moderation/events';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { normaliseEntry } from './code-matcher';

/** A list entry's stream, folded: listed (on or off), or never listed or deleted (then it may be added). */
export interface ListEntryState {
  listed: boolean;
  isActive: boolean;
}

const initialState = (): ListEntryState => ({ listed: false, isActive: false });

/** An entry must have something codes can be compared with: a letter or a digit. */
function checkEntry(text: string, field: string): void {
  if (normaliseEntry(text) === '')
    throw new ValidationError('must contain a letter or a digit', field, 'VALIDATION_FAILED');
}

export type ProhibitedWordCommand =
  | { type: 'AddWord'; wordId: string; word: string; category: WordCategory; severity: WordSeverity }
  | { type: 'SetWordActive'; wordId: string; isActive: boolean }
  | { type: 'DeleteWord'; wordId: string };

const noWord = () => new NotFoundError('No such prohibited word');

export const prohibitedWordDecider = deciderOf(prohibitedWordEvents, {
  initialState,
  evolve(state: ListEntryState, event: ProhibitedWordEvent): ListEntryState {
    switch (event.type) {
      case 'ProhibitedWordAdded':
        return { listed: true, isActive: true };
      case 'ProhibitedWordSwitchedOff':
        return { ...state, isActive: false };
      case 'ProhibitedWordSwitchedOn':
        return { ...state, isActive: true };
      case 'ProhibitedWordDeleted':
        return initialState();
      default:
        return exhaustive(event);
    }
  },
  decide(command: ProhibitedWordCommand, state: ListEntryState): ProhibitedWordEvent[] {
    const { wordId } = command;
    switch (command.type) {
      case 'AddWord': {
        checkEntry(command.word, 'word');
        if (state.listed)
          throw new ConflictError('CONFLICT', 'This word is already in the prohibited list', 'word');
        const { word, category, severity } = command;
        return [{ type: 'ProhibitedWordAdded', data: { wordId, word, category, severity } }];
      }
      case 'SetWordActive':
        if (!state.listed) throw noWord();
        if (state.isActive === command.isActive) return [];
        return [
          {
            type: command.isActive ? 'ProhibitedWordSwitchedOn' : 'ProhibitedWordSwitchedOff',
            data: { wordId },
          },
        ];
      case 'DeleteWord':
        if (!state.listed) throw noWord();
        return [{ type: 'ProhibitedWordDeleted', data: { wordId } }];
      default:
        return exhaustive(command);
    }
  },
});

export type ProtectedBrandCommand =
  | {
      type: 'AddBrand';
      brandId: string;
      brand: string;
      category: BrandCategory;
      requiresApproval: boolean;
    }
  | { type: 'SetBrandActive'; brandId: string; isActive: boolean }
  | { type: 'DeleteBrand'; brandId: string };

const noBrand = () => new NotFoundError('No such protected brand');

export const protectedBrandDecider = deciderOf(protectedBrandEvents, {
  initialState,
  evolve(state: ListEntryState, event: ProtectedBrandEvent): ListEntryState {
    switch (event.type) {
      case 'ProtectedBrandAdded':
        return { listed: true, isActive: true };
      case 'ProtectedBrandSwitchedOff':
        return { ...state, isActive: false };
      case 'ProtectedBrandSwitchedOn':
        return { ...state, isActive: true };
      case 'ProtectedBrandDeleted':
        return initialState();
      default:
        return exhaustive(event);
    }
  },
  decide(command: ProtectedBrandCommand, state: ListEntryState): ProtectedBrandEvent[] {
    const { brandId } = command;
    switch (command.type) {
      case 'AddBrand': {
        checkEntry(command.brand, 'brand');
        if (state.listed)
          throw new ConflictError('CONFLICT', 'This brand is already in the protected list', 'brand');
        const { brand, category, requiresApproval } = command;
        return [{ type: 'ProtectedBrandAdded', data: { brandId, brand, category, requiresApproval } }];
      }
      case 'SetBrandActive':
        if (!state.listed) throw noBrand();
        if (state.isActive === command.isActive) return [];
        return [
          {
            type: command.isActive ? 'ProtectedBrandSwitchedOn' : 'ProtectedBrandSwitchedOff',
            data: { brandId },
          },
        ];
      case 'DeleteBrand':
        if (!state.listed) throw noBrand();
        return [{ type: 'ProtectedBrandDeleted', data: { brandId } }];
      default:
        return exhaustive(command);
    }
  },
});
