import { prohibitedWordEvents, protectedBrandEvents } from '@sniplink/contracts/moderation/events';
import * as moderationTables from '@sniplink/platform/migrations/2026-11-28T14-moderation';
import {
  moderationListsProjection,
  slugApprovalsProjection,
} from '@sniplink/projections/moderation/projection';
import { defineFeature } from '../feature';
import { ModerationService } from './moderation-service';
import { moderationAdminRoutes, moderationRoutes } from './routes';

/**
 * Moderation: the admin's prohibited words and protected brands, which every claim of a code asks
 * (`ports.moderation`, compiled in memory on every process), and the approvals of codes that contain a
 * brand whose owner asks for them.
 */
export const moderationFeature = defineFeature({
  name: 'moderation',
  build: (ports) =>
    new ModerationService({
      eventStore: ports.eventStore,
      db: ports.db,
      readModels: ports.progress,
      clock: ports.clock,
      links: ports.links,
      accounts: ports.accounts,
      lists: ports.moderation,
      mailer: ports.mailer,
      publicUrl: ports.config.publicUrl,
      log: ports.log,
    }),
  routes: (moderation) => [(api) => moderationRoutes(api, { moderation })],
  adminRoutes: (moderation) => [(admin) => moderationAdminRoutes(admin, { moderation })],
  migrations: { '2026-11-28T14-moderation': moderationTables },
  events: [prohibitedWordEvents, protectedBrandEvents],
  projections: () => [moderationListsProjection, slugApprovalsProjection],
});
