import { type AdminSearch, adminRoute } from '../admin/places';

/** Where the Events tab goes next: a change of search, stream, event or request. */
export type EventsPlace = Pick<AdminSearch, 'q' | 'stream' | 'from' | 'event' | 'correlation'>;

/** Moves the Events tab to another place in the address (a reload keeps it there). */
export function useEventsNavigate() {
  const navigate = adminRoute.useNavigate();
  return (place: EventsPlace) => void navigate({ search: (previous) => ({ ...previous, ...place }) });
}
