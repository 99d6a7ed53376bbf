import { type LinkEvent, linkEvents } from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError } from '../errors';

export interface LinkState {
  status: 'none' | 'active' | 'deleted';
  ownerId: string | null;
  code: string | null;
  originalUrl: string | null;
  title: string | null;
}

/** Every command names who asks: a link that is not theirs is "not found", exactly as a missing one. */
export type LinkCommand =
  | {
      type: 'CreateLink';
      linkId: string;
      ownerId: string;
      code: string;
      originalUrl: string;
      title: string | null;
      origin: 'dashboard' | 'duplicate' | 'demo';
    }
  /** An edit: each field given is set (absent: unchanged), all in one append, so an edit lands whole or not at all. */
  | { type: 'ChangeLink'; ownerId: string; title?: string | null; originalUrl?: string; code?: string }
  | { type: 'TransferLink'; ownerId: string; newOwnerId: string }
  | { type: 'DeleteLink'; ownerId: string };

const initialState = (): LinkState => ({
  status: 'none',
  ownerId: null,
  code: null,
  originalUrl: null,
  title: null,
});

function evolve(state: LinkState, event: LinkEvent): LinkState {
  switch (event.type) {
    case 'LinkCreated': {
      const { ownerId, code, originalUrl, title } = event.data;
      return { status: 'active', ownerId, code, originalUrl, title };
    }
    case 'LinkRetitled':
      return { ...state, title: event.data.title };
    case 'LinkRetargeted':
      return { ...state, originalUrl: event.data.originalUrl };
    case 'LinkCodeChanged':
      return { ...state, code: event.data.code };
    case 'LinkOwnerChanged':
      return { ...state, ownerId: event.data.ownerId };
    case 'LinkDeleted':
      return { ...state, status: 'deleted' };
    default:
      return exhaustive(event);
  }
}

function decide(command: LinkCommand, state: LinkState): LinkEvent[] {
  if (command.type === 'CreateLink') {
    if (state.status !== 'none') throw new ConflictError('CONFLICT', 'This link already exists');
    const { linkId, ownerId, code, originalUrl, title, origin } = command;
    return [{ type: 'LinkCreated', data: { linkId, ownerId, code, originalUrl, title, origin } }];
  }
  // A claim retried after its transfer went through (a second sign-in racing the first) continues:
  // answering "not found" there would make the caller give back a slot the link really holds.
  if (command.type === 'TransferLink' && state.status === 'active' && state.ownerId === command.newOwnerId)
    return [];
  if (state.status !== 'active' || state.ownerId !== command.ownerId)
    throw new NotFoundError('Link not found');
  switch (command.type) {
    case 'ChangeLink':
      return changesOf(command, state);
    case 'TransferLink':
      return [
        { type: 'LinkOwnerChanged', data: { ownerId: command.newOwnerId, previousOwnerId: command.ownerId } },
      ];
    case 'DeleteLink':
      return [{ type: 'LinkDeleted', data: {} }];
    default:
      return exhaustive(command);
  }
}

/** Only what differs from the link as it is. */
function changesOf(command: Extract<LinkCommand, { type: 'ChangeLink' }>, state: LinkState): LinkEvent[] {
  const events: LinkEvent[] = [];
  const { title, originalUrl, code } = command;
  if (title !== undefined && title !== state.title) events.push({ type: 'LinkRetitled', data: { title } });
  if (originalUrl !== undefined && originalUrl !== state.originalUrl)
    events.push({ type: 'LinkRetargeted', data: { originalUrl } });
  if (code !== undefined && code !== state.code)
    events.push({ type: 'LinkCodeChanged', data: { code, previousCode: state.code ?? '' } });
  return events;
}

export const linkDecider = deciderOf(linkEvents, { initialState, evolve, decide });
