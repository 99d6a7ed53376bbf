import {
  ANNOUNCEMENT_MESSAGE_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  type AnnouncementAudience,
  type AnnouncementDismissalEvent,
  type AnnouncementEvent,
  type AnnouncementType,
  announcementDismissalEvents,
  announcementEvents,
  hasVisibleText,
} from '@sniplink/contracts';
import { type Decider, deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';

/** What an admin publishes (without `createdAt`: the event's time is that). */
export interface AnnouncementContent {
  title: string;
  message: string;
  type: AnnouncementType;
  targetAudience: AnnouncementAudience;
}

/** An announcement's stream `announcement-{id}`, folded. */
export interface AnnouncementState {
  status: 'none' | 'published';
  content: AnnouncementContent | null;
  isActive: boolean;
}

export type AnnouncementCommand =
  | { type: 'PublishAnnouncement'; announcementId: string; content: AnnouncementContent; isActive: boolean }
  /** Switch it off (shown to no one) or on again; asking for what it is already changes nothing. */
  | { type: 'SetAnnouncementActive'; announcementId: string; isActive: boolean };

const initialState = (): AnnouncementState => ({ status: 'none', content: null, isActive: false });

function evolve(state: AnnouncementState, event: AnnouncementEvent): AnnouncementState {
  switch (event.type) {
    case 'AnnouncementPublished': {
      const { title, message, type, targetAudience, isActive } = event.data;
      return { status: 'published', content: { title, message, type, targetAudience }, isActive };
    }
    case 'AnnouncementSwitchedOff':
      return { ...state, isActive: false };
    case 'AnnouncementSwitchedOn':
      return { ...state, isActive: true };
    default:
      return exhaustive(event);
  }
}

function decide(command: AnnouncementCommand, state: AnnouncementState): AnnouncementEvent[] {
  const { announcementId } = command;
  switch (command.type) {
    case 'PublishAnnouncement': {
      if (state.status !== 'none') throw new ConflictError('CONFLICT', 'This announcement already exists');
      const title = required('title', command.content.title, ANNOUNCEMENT_TITLE_MAX);
      const message = required('message', command.content.message, ANNOUNCEMENT_MESSAGE_MAX);
      const { content, isActive } = command;
      const { type, targetAudience } = content;
      return [
        {
          type: 'AnnouncementPublished',
          data: { announcementId, title, message, type, targetAudience, isActive },
        },
      ];
    }
    case 'SetAnnouncementActive': {
      if (state.status === 'none') throw new NotFoundError('No such announcement');
      if (state.isActive === command.isActive) return [];
      const type = command.isActive ? 'AnnouncementSwitchedOn' : 'AnnouncementSwitchedOff';
      return [{ type, data: { announcementId } }];
    }
    default:
      return exhaustive(command);
  }
}

/** The text trimmed; blank or too long is refused, naming the field (the API checks the same first). */
function required(field: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (!hasVisibleText(trimmed)) throw new ValidationError(`${field} must not be blank`, field);
  if (trimmed.length > max)
    throw new ValidationError(`${field} must be at most ${max.toLocaleString('en-US')} characters`, field);
  return trimmed;
}

export const announcementDecider = deciderOf(announcementEvents, { initialState, evolve, decide });

/** Who is looking: Pro or not, admin or not. */
export interface AnnouncementViewer {
  pro: boolean;
  admin: boolean;
}

/** The audiences a viewer belongs to: everyone `all`; `paid` if Pro, else `free`; admins `admin` too. */
export function audiencesOf(viewer: AnnouncementViewer): AnnouncementAudience[] {
  return ['all', viewer.pro ? 'paid' : 'free', ...(viewer.admin ? (['admin'] as const) : [])];
}

export const isAnnouncementFor = (audience: AnnouncementAudience, viewer: AnnouncementViewer): boolean =>
  audiencesOf(viewer).includes(audience);

/** A user's dismissals stream `announcementdismissals-{userId}`: the announcements they closed. */
export interface DismissalsState {
  dismissed: ReadonlySet<string>;
}

export type DismissalCommand = { type: 'DismissAnnouncement'; announcementId: string };

export const announcementDismissalsDecider: Decider<
  DismissalCommand,
  DismissalsState,
  AnnouncementDismissalEvent
> = {
  events: announcementDismissalEvents,
  initialState: () => ({ dismissed: new Set() }),
  evolve: (state, event) => ({ dismissed: new Set(state.dismissed).add(event.data.announcementId) }),
  // Dismissed for good: a second dismissal (another tab, a double click) adds nothing.
  decide: ({ announcementId }, state) =>
    state.dismissed.has(announcementId) ? [] : [{ type: 'AnnouncementDismissed', data: { announcementId } }],
};
