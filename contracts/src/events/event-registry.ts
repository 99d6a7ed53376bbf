import { emailClaimEvents, userEvents } from '../accounts/events';
import { announcementDismissalEvents, announcementEvents } from '../admin/announcements';
import { configEvents } from '../admin/config';
import { adminFlagEvents, adminRosterEvents } from '../admin/users';
import { billingClaimEvents, billingEvents, paidPlanEvents } from '../billing/events';
import { linkEvents, linkQuotaEvents, shortCodeEvents } from '../links/events';
import { premiumBuyerEvents, premiumSlugEvents } from '../marketplace/events';
import { ticketEvents } from '../support/events';
import { EventRegistry } from './registry';

/**
 * The events of the features that share streams (a user's stream holds events of accounts, billing and
 * links alike). A feature whose events live on streams of its own lists them in its own module
 * (`Feature.events`); the composition root adds them to these.
 */
export const sharedEventGroups = [
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
] as const;

/** The events of the features above: the registry of a process that runs no feature module of its own. */
export const eventRegistry = new EventRegistry(sharedEventGroups);
