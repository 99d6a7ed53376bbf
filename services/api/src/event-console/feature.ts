import { disclosureEvents } from '@sniplink/contracts/event-console/events';
import * as eventCorrelationsTables from '@sniplink/platform/migrations/2026-11-28T17-event-correlations';
import { eventCorrelationsProjection } from '@sniplink/projections/event-console/projection';
import { defineFeature } from '../feature';
import { EventConsoleService } from './event-console-service';
import { eventConsoleRoutes } from './routes';

/** The Events tab: any entity's history from the event log, its state after each event, a request's events. */
export const eventConsoleFeature = defineFeature({
  name: 'event-console',
  build: ({ eventStore, db, progress, clock, ids, keyring }) =>
    new EventConsoleService({ eventStore, db, readModels: progress, clock, ids, keyring }),
  adminRoutes: (eventLog) => [(admin) => eventConsoleRoutes(admin, { eventLog })],
  migrations: { '2026-11-28T17-event-correlations': eventCorrelationsTables },
  events: [disclosureEvents],
  projections: () => [eventCorrelationsProjection],
});
