import { type EventActor, STREAM_EVENTS_DEFAULT_LIMIT } from '@sniplink/contracts/event-console/api';

/** Who made an event happen, as the console names people elsewhere. */
export function actorLabel(actor: EventActor): string {
  switch (actor.kind) {
    case 'operator':
      return 'Operator (command line)';
    case 'system':
      return 'System';
    case 'visitor':
      return 'Demo visitor';
    case 'user':
      return actor.email ?? 'Erased user';
  }
}

/** The way a privileged command came in, in words; a user's own doing has none. */
export const channelLabel = (channel: string | null): string | null =>
  channel === 'admin-console'
    ? 'admin console'
    : channel === 'operator'
      ? 'command line'
      : channel === 'api'
        ? 'API key'
        : null;

const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** An event's time in the reader's locale, to the second (several events share a minute). */
export const momentLabel = (iso: string): string => moment.format(new Date(iso));

/** The first revision of the page of a stream's history that lists `revision` (pages of the server's default). */
export const pageStartOf = (revision: number): number => revision - (revision % STREAM_EVENTS_DEFAULT_LIMIT);
