import type { Link } from '@sniplink/contracts';
import { dailyClicksOf } from '@sniplink/projections';
import { defineFeature } from '../feature';
import { supportFeature } from '../support/feature';
import { ExportService } from './export-service';
import { ExportStore } from './export-store';
import * as exportTables from './migration';
import { exportRoutes } from './routes';

const LINKS_PAGE = 1_000;

/**
 * "Download my data": a user's ZIP of everything they hold here, built in the background and kept for a
 * day. An erasure deletes the user's exports at once; housekeeping deletes expired ones, and those of
 * accounts erased by the operator's command (which does not run the app's features).
 */
export const exportsFeature = defineFeature({
  name: 'exports',
  build: (ports, built) => {
    const { db, accounts, links, clock, ids, log } = ports;
    const { support } = built.of(supportFeature);
    const exports = new ExportService({
      store: new ExportStore(db),
      clock,
      ids,
      log,
      sources: {
        profile: (userId) => accounts.requireUser(userId),
        links: async (userId) => {
          const all: Link[] = [];
          for (let page = await links.list(userId, { limit: LINKS_PAGE }); ; ) {
            all.push(...page);
            if (page.length < LINKS_PAGE) return all;
            page = await links.list(userId, { limit: LINKS_PAGE, offset: all.length });
          }
        },
        dailyClicks: (linkIds) => dailyClicksOf(db, linkIds),
        tickets: (userId) => support.ticketsOf(userId),
        messages: (userId, ticketId) => support.messagesOf(userId, ticketId),
      },
    });
    accounts.endOnErasure((userId) => exports.eraseAllOf(userId));
    return exports;
  },
  routes: (exports) => [(api) => exportRoutes(api, { exports })],
  housekeeping:
    (exports, { accounts }) =>
    async () =>
      exports.sweep(async (userId) => (await accounts.user(userId)) !== null),
  migrations: { '2026-11-28T18-user-exports': exportTables },
});
