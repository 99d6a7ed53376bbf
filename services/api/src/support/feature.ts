import * as supportTables from '@sniplink/platform/migrations/2026-11-27T07-support';
import * as urgentTicketDigest from '@sniplink/platform/migrations/2026-11-28T06-urgent-ticket-digest';
import { defineFeature } from '../feature';
import { supportAdminRoutes } from './admin';
import { closeResolvedTickets } from './auto-close';
import { SupportMail } from './notifications';
import { supportRoutes } from './routes';
import { SupportService } from './support-service';
import { UrgentTicketDigest } from './urgent-digest';

/**
 * Support tickets: users open and follow theirs, admins answer them in the Support tab; mails go out,
 * urgent tickets in a digest to the admins. Housekeeping closes resolved tickets and sends a digest a
 * stopped process held back.
 */
export const supportFeature = defineFeature({
  name: 'support',
  build: (ports) => {
    const { eventStore, accounts, keyring, clock, ids, log, db, mailer } = ports;
    const { publicUrl } = ports.config;
    const digest = new UrgentTicketDigest({ db, mailer, clock, publicUrl });
    const mail = new SupportMail({ mailer, digest, accounts, publicUrl, log });
    const support = new SupportService({
      eventStore,
      db,
      readModels: ports.progress,
      keyring,
      accounts,
      mail,
      clock,
      ids,
    });
    return { support, digest };
  },
  routes: ({ support }, { sessions }) => [(api) => supportRoutes(api, { support, sessions })],
  adminRoutes: ({ support }) => [(admin) => supportAdminRoutes(admin, { support })],
  housekeeping:
    ({ digest }, { db, eventStore, log, clock }) =>
    async () => {
      await closeResolvedTickets({ db, eventStore, log, clock });
      await digest.send();
    },
  migrations: {
    '2026-11-27T07-support': supportTables,
    '2026-11-28T06-urgent-ticket-digest': urgentTicketDigest,
  },
});
