import { emailClaimEvents, userEvents } from '../accounts/events';
import { announcementDismissalEvents, announcementEvents } from '../admin/announcements';
import { configEvents } from '../admin/config';
import { adminFlagEvents, adminRosterEvents } from '../admin/users';
import { billingClaimEvents, billingEvents, paidPlanEvents } from '../billing/events';
import { linkEvents, linkQuotaEvents, shortCodeEvents } from '../links/events';
import { premiumBuyerEvents, premiumSlugEvents } from '../marketplace/events';
import { ticketEvents } from '../support/events';
import { EventRegistry } from './registry';

/** Every event the store holds, feature by feature: the registry each event store is given. */
export const eventRegistry = new EventRegistry([
  userEvents,
  emailClaimEvents,
  linkEvents,
  shortCodeEvents,
  linkQuotaEvents,
  billingEvents,
  paidPlanEvents,
  billingClaimEvents,
  configEvents,
  announcementEvents,
  announcementDismissalEvents,
  adminFlagEvents,
  adminRosterEvents,
  premiumSlugEvents,
  premiumBuyerEvents,
  ticketEvents,
]);
