import { isSeoPage, type SeoEvent, type SeoSettings, seoEvents, seoPageList } from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { NotFoundError } from '../errors';

/** A page's entry as its stream `seo-{page}` leaves it: none until an admin first saves one. */
export interface SeoSettingsState {
  settings: SeoSettings | null;
}

/** The request's schema has checked and normalised the fields; the page is checked here. */
export type SeoCommand = { type: 'UpdateSeoSettings'; page: string; settings: SeoSettings };

const initialState = (): SeoSettingsState => ({ settings: null });

/** Each event holds the whole entry: the state before it does not matter. */
function evolve(_state: SeoSettingsState, event: SeoEvent): SeoSettingsState {
  switch (event.type) {
    case 'SeoSettingsUpdated': {
      const { page: _page, ...settings } = event.data;
      return { settings };
    }
    default:
      return exhaustive(event.type);
  }
}

function decide(command: SeoCommand, state: SeoSettingsState): SeoEvent[] {
  switch (command.type) {
    case 'UpdateSeoSettings': {
      const { page, settings } = command;
      if (!isSeoPage(page)) throw unknownPage(page);
      // Saving what is stored again changes nothing, and the history gets no entry for it.
      if (state.settings && sameSettings(state.settings, settings)) return [];
      return [{ type: 'SeoSettingsUpdated', data: { page, ...settings } }];
    }
    default:
      return exhaustive(command.type);
  }
}

const sameSettings = (a: SeoSettings, b: SeoSettings): boolean =>
  (Object.keys(a) as (keyof SeoSettings)[]).every((field) => a[field] === b[field]);

/** The 404 of a page key the SEO tab does not have, naming the ones it has. */
export const unknownPage = (page: string) =>
  new NotFoundError(`No page "${page}" has SEO settings; the pages are ${seoPageList}`);

export const seoSettingsDecider = deciderOf(seoEvents, { initialState, evolve, decide });
