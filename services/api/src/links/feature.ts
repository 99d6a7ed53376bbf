import * as linksTable from '@sniplink/platform/migrations/2026-11-22T05-links';
import * as suspendedLinkOwners from '@sniplink/platform/migrations/2026-11-28T07-suspended-link-owners';
import * as linkControls from '@sniplink/platform/migrations/2026-11-28T15-link-controls';
import * as linkTargeting from '@sniplink/platform/migrations/2026-11-28T16-link-targeting';
import { defineFeature } from '../feature';
import { pruneIdempotencyKeys } from './idempotency';
import { linkRoutes } from './routes';

/** Links: a user's short links and their codes. The link service starts with the runtime (the CLIs use it). */
export const linksFeature = defineFeature({
  name: 'links',
  routes: (_services, { links, sessions, db, settings }) => [
    (api) => linkRoutes(api, { links, sessions, db, settings }),
  ],
  housekeeping:
    (_services, { db }) =>
    () =>
      pruneIdempotencyKeys(db),
  migrations: {
    '2026-11-22T05-links': linksTable,
    '2026-11-28T07-suspended-link-owners': suspendedLinkOwners,
    '2026-11-28T15-link-controls': linkControls,
    '2026-11-28T16-link-targeting': linkTargeting,
  },
});
