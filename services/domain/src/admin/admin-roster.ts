import { type AdminActor, type AdminRosterEvent, adminRosterEvents } from '@sniplink/contracts';
import { type Decider, exhaustive } from '../decider';
import { ConflictError, ForbiddenError } from '../errors';

/**
 * The stream `admin-roster`: who is an admin. One stream holds them all, so the rule "at least one admin
 * remains" is guarded by its expected revision, across processes; each user's stream then mirrors the
 * roster's word (`GrantAdmin` / `RevokeAdmin` with the roster's revision).
 */
export interface AdminRosterState {
  /** The admins now, in the order they joined. */
  members: string[];
  /** Users who were admins and are not now (their streams must say so too). */
  former: string[];
  /** The stream's revision (-1: empty): what the user's stream records as the mirror's version. */
  revision: number;
}

export type AdminRosterCommand =
  | { type: 'AddAdmin'; userId: string; by: AdminActor }
  /** `erasure`: the account is being erased and leaves the roster even as its last admin. */
  | { type: 'RemoveAdmin'; userId: string; by: AdminActor; erasure?: boolean };

const isPerson = (by: AdminActor) => by !== 'operator' && by !== 'system';

/** The last admin: refused whoever asks (the operator can grant another admin first). */
const lastAdminError = (self: boolean) =>
  new ConflictError(
    'CONFLICT',
    self
      ? 'You are the last admin: make another user an admin before removing your own admin access.'
      : 'This is the last admin: make another user an admin first.',
  );

function decide(command: AdminRosterCommand, state: AdminRosterState): AdminRosterEvent[] {
  const { userId, by } = command;
  // An admin whose flag was removed a moment ago (their request passed the gate before) acts no more.
  if (isPerson(by) && !state.members.includes(by))
    throw new ForbiddenError('ADMIN_REQUIRED', 'Admin access required.');
  const member = state.members.includes(userId);
  switch (command.type) {
    case 'AddAdmin':
      return member ? [] : [{ type: 'AdminRosterJoined', data: { userId, by } }];
    case 'RemoveAdmin':
      if (!member) return [];
      if (state.members.length === 1 && !command.erasure) throw lastAdminError(by === userId);
      return [{ type: 'AdminRosterLeft', data: { userId, by } }];
    default:
      return exhaustive(command);
  }
}

function evolve(state: AdminRosterState, event: AdminRosterEvent): AdminRosterState {
  const { userId } = event.data;
  const members = state.members.filter((id) => id !== userId);
  const former = state.former.filter((id) => id !== userId);
  const revision = state.revision + 1;
  switch (event.type) {
    case 'AdminRosterJoined':
      return { members: [...members, userId], former, revision };
    case 'AdminRosterLeft':
      return { members, former: [...former, userId], revision };
    default:
      return exhaustive(event);
  }
}

export const adminRosterDecider: Decider<AdminRosterCommand, AdminRosterState, AdminRosterEvent> = {
  events: adminRosterEvents,
  initialState: () => ({ members: [], former: [], revision: -1 }),
  evolve,
  decide,
};
