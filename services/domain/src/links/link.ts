import { type LinkEvent, linkEvents, type TargetingRule } from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError } from '../errors';

export interface LinkState {
  status: 'none' | 'active' | 'deleted';
  ownerId: string | null;
  code: string | null;
  originalUrl: string | null;
  title: string | null;
  controls: LinkControls;
  /** The code waits for an admin's approval (it contains a protected brand): it redirects once approved. */
  review: CodeReview | null;
}

/** Which approval a code waits for, and the brand it contains. */
export interface CodeReview {
  approvalId: string;
  brand: string;
  /** Whose code it is: the approval names the user. */
  ownerId: string;
}

/** What a link's visitors meet besides its target; see `LinkControlChange` for how each is set. */
export interface LinkControls {
  /** The row of its password's hash, or null when anyone may follow it. */
  passwordId: string | null;
  expiresAt: string | null;
  maxClicks: number | null;
  fallbackUrl: string | null;
  paused: boolean;
  tags: readonly string[];
  /** Targeting rules in order (the first that matches a visitor wins); empty: every visitor gets the target. */
  rules: readonly TargetingRule[];
}

/** Controls to set: each one given is set (null clears it), an absent one is unchanged. */
export type LinkControlChange = { [Name in keyof LinkControls]?: LinkControls[Name] };

const noControls = (): LinkControls => ({
  passwordId: null,
  expiresAt: null,
  maxClicks: null,
  fallbackUrl: null,
  paused: false,
  tags: [],
  rules: [],
});

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
      controls?: LinkControlChange;
      review?: CodeReview;
    }
  /**
   * An edit: each field given is set (absent: unchanged), all in one append, so an edit lands whole or not
   * at all. A new code in review names its approval.
   */
  | {
      type: 'ChangeLink';
      ownerId: string;
      title?: string | null;
      originalUrl?: string;
      code?: string;
      controls?: LinkControlChange;
      review?: CodeReview;
    }
  /** An admin's decision on the code in review (not the owner's command: any admin may give it). */
  | { type: 'ApproveCode'; approvalId: string; notes: string | null }
  | { type: 'RejectCode'; approvalId: string; reason: string; newCode: string }
  | { type: 'TransferLink'; ownerId: string; newOwnerId: string }
  | { type: 'DeleteLink'; ownerId: string };

const initialState = (): LinkState => ({
  status: 'none',
  ownerId: null,
  code: null,
  originalUrl: null,
  title: null,
  controls: noControls(),
  review: null,
});

function evolve(state: LinkState, event: LinkEvent): LinkState {
  switch (event.type) {
    case 'LinkCreated': {
      const { ownerId, code, originalUrl, title, review } = event.data;
      return {
        status: 'active',
        ownerId,
        code,
        originalUrl,
        title,
        controls: noControls(),
        review: review ?? null,
      };
    }
    case 'LinkRetitled':
      return { ...state, title: event.data.title };
    case 'LinkRetargeted':
      return { ...state, originalUrl: event.data.originalUrl };
    case 'LinkCodeChanged':
      return { ...state, code: event.data.code, review: event.data.review ?? null };
    case 'LinkCodeApproved':
    case 'LinkCodeRejected':
      return { ...state, review: null };
    case 'LinkOwnerChanged':
      return { ...state, ownerId: event.data.ownerId };
    case 'LinkDeleted':
      return { ...state, status: 'deleted' };
    default:
      return { ...state, controls: evolveControls(state.controls, event) };
  }
}

type ControlEvent = Exclude<
  LinkEvent,
  {
    type:
      | 'LinkCreated'
      | 'LinkRetitled'
      | 'LinkRetargeted'
      | 'LinkCodeChanged'
      | 'LinkCodeApproved'
      | 'LinkCodeRejected'
      | 'LinkOwnerChanged'
      | 'LinkDeleted';
  }
>;

function evolveControls(controls: LinkControls, event: ControlEvent): LinkControls {
  switch (event.type) {
    case 'LinkPasswordSet':
      return { ...controls, passwordId: event.data.passwordId };
    case 'LinkPasswordRemoved':
      return { ...controls, passwordId: null };
    case 'LinkExpiryChanged':
      return { ...controls, expiresAt: event.data.expiresAt };
    case 'LinkClickLimitChanged':
      return { ...controls, maxClicks: event.data.maxClicks };
    case 'LinkFallbackChanged':
      return { ...controls, fallbackUrl: event.data.fallbackUrl };
    case 'LinkPaused':
      return { ...controls, paused: true };
    case 'LinkUnpaused':
      return { ...controls, paused: false };
    case 'LinkTagsChanged':
      return { ...controls, tags: event.data.tags };
    case 'LinkRulesChanged':
      return { ...controls, rules: event.data.rules };
    default:
      return exhaustive(event);
  }
}

function decide(command: LinkCommand, state: LinkState): LinkEvent[] {
  if (command.type === 'CreateLink') {
    if (state.status !== 'none') throw new ConflictError('CONFLICT', 'This link already exists');
    const { linkId, ownerId, code, originalUrl, title, origin, review } = command;
    return [
      {
        type: 'LinkCreated',
        data: { linkId, ownerId, code, originalUrl, title, origin, ...(review && { review }) },
      },
      ...controlChanges(command.controls ?? {}, noControls()),
    ];
  }
  if (command.type === 'ApproveCode' || command.type === 'RejectCode') return decideReview(command, state);
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

/**
 * Approve lets the code redirect; reject moves the link to the generated code it is given. Only the
 * approval the code waits for now: one decided already, or a code the owner changed meanwhile, is a 409.
 */
function decideReview(
  command: Extract<LinkCommand, { type: 'ApproveCode' | 'RejectCode' }>,
  state: LinkState,
): LinkEvent[] {
  if (state.status !== 'active' || state.review?.approvalId !== command.approvalId || state.code === null)
    throw new ConflictError('CONFLICT', 'This short code is no longer waiting for approval');
  const { approvalId } = command;
  const code = state.code;
  if (command.type === 'ApproveCode')
    return [{ type: 'LinkCodeApproved', data: { approvalId, code, notes: command.notes } }];
  return [
    { type: 'LinkCodeRejected', data: { approvalId, code, reason: command.reason } },
    { type: 'LinkCodeChanged', data: { code: command.newCode, previousCode: code } },
  ];
}

/** Only what differs from the link as it is. */
function changesOf(command: Extract<LinkCommand, { type: 'ChangeLink' }>, state: LinkState): LinkEvent[] {
  const events: LinkEvent[] = [];
  const { title, originalUrl, code, review } = command;
  if (title !== undefined && title !== state.title) events.push({ type: 'LinkRetitled', data: { title } });
  if (originalUrl !== undefined && originalUrl !== state.originalUrl)
    events.push({ type: 'LinkRetargeted', data: { originalUrl } });
  if (code !== undefined && code !== state.code) {
    // A change of case is the same code: one waiting for approval goes on waiting.
    const sameCode = code.toLowerCase() === state.code?.toLowerCase();
    const waitsFor = review ?? (sameCode ? state.review : null);
    events.push({
      type: 'LinkCodeChanged',
      data: { code, previousCode: state.code ?? '', ...(waitsFor && { review: waitsFor }) },
    });
  }
  return [...events, ...controlChanges(command.controls ?? {}, state.controls)];
}

/** One event per control that differs; a password given is always a new one (a new hash row). */
function controlChanges(change: LinkControlChange, current: LinkControls): LinkEvent[] {
  const events: LinkEvent[] = [];
  const { passwordId, expiresAt, maxClicks, fallbackUrl, paused, tags, rules } = change;
  if (passwordId !== undefined && passwordId !== current.passwordId)
    events.push(
      passwordId === null
        ? { type: 'LinkPasswordRemoved', data: {} }
        : { type: 'LinkPasswordSet', data: { passwordId } },
    );
  if (expiresAt !== undefined && expiresAt !== current.expiresAt)
    events.push({ type: 'LinkExpiryChanged', data: { expiresAt } });
  if (maxClicks !== undefined && maxClicks !== current.maxClicks)
    events.push({ type: 'LinkClickLimitChanged', data: { maxClicks } });
  if (fallbackUrl !== undefined && fallbackUrl !== current.fallbackUrl)
    events.push({ type: 'LinkFallbackChanged', data: { fallbackUrl } });
  if (paused !== undefined && paused !== current.paused)
    events.push(paused ? { type: 'LinkPaused', data: {} } : { type: 'LinkUnpaused', data: {} });
  if (tags !== undefined && tags.join('\n') !== current.tags.join('\n'))
    events.push({ type: 'LinkTagsChanged', data: { tags: [...tags] } });
  // Rules are compared whole: their order decides, so a reordering is a change.
  if (rules !== undefined && JSON.stringify(rules) !== JSON.stringify(current.rules))
    events.push({ type: 'LinkRulesChanged', data: { rules: rules.map((rule) => ({ ...rule })) } });
  return events;
}

export const linkDecider = deciderOf(linkEvents, { initialState, evolve, decide });
