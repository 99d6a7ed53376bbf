import { hasVisibleText } from '@sniplink/contracts';
import type { PageCopyKey } from '@sniplink/contracts/content/api';
import { type PageCopyEvent, pageCopyEvents } from '@sniplink/contracts/content/events';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, ValidationError } from '../errors';

/** A page's copy as its stream `page-{page}` leaves it. */
export interface PageCopyState {
  title: string;
  content: string;
  /** Whether the draft is the version last published (nothing saved since). */
  published: boolean;
  /** The last published version's number: 0 before the first. */
  version: number;
}

export type PageCopyCommand =
  | { type: 'SavePageCopyDraft'; page: PageCopyKey; title: string; content: string }
  | { type: 'PublishPageCopy'; page: PageCopyKey };

const initialState = (): PageCopyState => ({ title: '', content: '', published: false, version: 0 });

function evolve(state: PageCopyState, event: PageCopyEvent): PageCopyState {
  switch (event.type) {
    case 'PageCopyDraftSaved':
      return { ...state, title: event.data.title, content: event.data.content, published: false };
    case 'PageCopyPublished':
      return {
        title: event.data.title,
        content: event.data.content,
        published: true,
        version: event.data.version,
      };
    default:
      return exhaustive(event);
  }
}

function decide(command: PageCopyCommand, state: PageCopyState): PageCopyEvent[] {
  const { page } = command;
  switch (command.type) {
    case 'SavePageCopyDraft': {
      // Saving what is already there records nothing (a second click of Save Draft).
      if (command.title === state.title && command.content === state.content) return [];
      return [{ type: 'PageCopyDraftSaved', data: { page, title: command.title, content: command.content } }];
    }
    case 'PublishPageCopy': {
      if (!hasVisibleText(state.title))
        throw new ValidationError('The draft has no title: save a title before publishing', 'title');
      if (!hasVisibleText(state.content))
        throw new ValidationError('The draft has no content: save some copy before publishing', 'content');
      if (state.published)
        throw new ConflictError(
          'CONFLICT',
          `This draft is already published as version ${state.version}: save a change to publish again`,
        );
      const { title, content } = state;
      return [{ type: 'PageCopyPublished', data: { page, version: state.version + 1, title, content } }];
    }
    default:
      return exhaustive(command);
  }
}

/** A page's copy: drafts replace one another; Publish makes the draft the next version. */
export const pageCopyDecider = deciderOf(pageCopyEvents, { initialState, evolve, decide });
