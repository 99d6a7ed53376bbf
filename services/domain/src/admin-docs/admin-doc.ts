import type { AdminDocFields } from '@sniplink/contracts/admin-docs/api';
import { type AdminDocEvent, adminDocEvents } from '@sniplink/contracts/admin-docs/events';
import { type Decider, deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError } from '../errors';

/** A doc's stream `admindoc-{docId}`, folded: never written, live with its fields, or deleted. */
export type AdminDocState =
  | { status: 'none' }
  | { status: 'live'; doc: AdminDocFields }
  | { status: 'deleted'; doc: AdminDocFields };

/** The fields are checked by the request's schema (and by the event's on append). */
export type AdminDocCommand =
  | { type: 'CreateAdminDoc'; docId: string; doc: AdminDocFields }
  /**
   * One doc of the starter set, under an id of its own that every seed gives it: added only while its
   * stream was never written, so a second seed adds nothing and a starter doc an admin deleted stays
   * deleted.
   */
  | { type: 'SeedAdminDoc'; docId: string; doc: AdminDocFields }
  | { type: 'EditAdminDoc'; docId: string; doc: AdminDocFields }
  | { type: 'DeleteAdminDoc'; docId: string };

const initialState = (): AdminDocState => ({ status: 'none' });

function evolve(state: AdminDocState, event: AdminDocEvent): AdminDocState {
  switch (event.type) {
    case 'AdminDocCreated':
    case 'AdminDocEdited': {
      const { section, title, content, sortOrder } = event.data;
      return { status: 'live', doc: { section, title, content, sortOrder } };
    }
    case 'AdminDocDeleted':
      return state.status === 'live' ? { status: 'deleted', doc: state.doc } : state;
    default:
      return exhaustive(event);
  }
}

const noSuchDoc = () => new NotFoundError('No such doc');

function decide(command: AdminDocCommand, state: AdminDocState): AdminDocEvent[] {
  const { docId } = command;
  switch (command.type) {
    case 'CreateAdminDoc':
      if (state.status !== 'none') throw new ConflictError('CONFLICT', 'This doc already exists');
      return [{ type: 'AdminDocCreated', data: { docId, ...command.doc, seeded: false } }];
    case 'SeedAdminDoc':
      if (state.status !== 'none') return [];
      return [{ type: 'AdminDocCreated', data: { docId, ...command.doc, seeded: true } }];
    case 'EditAdminDoc':
      if (state.status !== 'live') throw noSuchDoc();
      if (sameDoc(state.doc, command.doc)) return [];
      return [{ type: 'AdminDocEdited', data: { docId, ...command.doc } }];
    case 'DeleteAdminDoc':
      if (state.status !== 'live') throw noSuchDoc();
      return [{ type: 'AdminDocDeleted', data: { docId, title: state.doc.title } }];
    default:
      return exhaustive(command);
  }
}

const sameDoc = (a: AdminDocFields, b: AdminDocFields) =>
  a.section === b.section && a.title === b.title && a.content === b.content && a.sortOrder === b.sortOrder;

export const adminDocDecider: Decider<AdminDocCommand, AdminDocState, AdminDocEvent> = deciderOf(
  adminDocEvents,
  { decide, evolve, initialState },
);
