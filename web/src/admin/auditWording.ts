import type { AuditActor, AuditEntry } from '@sniplink/contracts';

/**
 * How the history words what was done. The audit lists every event an admin or operator caused, so a
 * type not named here (a later tab's action) is shown by its name.
 */
const actionWords: Record<string, string> = {
  UserSuspended: 'Suspended',
  UserUnsuspended: 'Unsuspended',
  AdminGranted: 'Made admin',
  AdminRevoked: 'Removed admin',
  SubscriptionStarted: 'Plan granted',
  SubscriptionEnded: 'Plan grant ended',
  UserProfileUpdated: 'Profile edited',
  UserPasswordChanged: 'Password changed',
  UserErased: 'Erased',
  ConfigEntryCreated: 'Config entry added',
  ConfigEntryUpdated: 'Config entry changed',
  ConfigEntryDeleted: 'Config entry deleted',
  AnnouncementPublished: 'Announcement published',
  AnnouncementSwitchedOff: 'Announcement switched off',
  AnnouncementSwitchedOn: 'Announcement switched on',
  PremiumSlugAdded: 'Premium slug added',
  PremiumSlugEdited: 'Premium slug edited',
  PremiumSlugDeleted: 'Premium slug deleted',
  ShortCodeReservedForPremiumSlug: 'Short code reserved for a premium slug',
  ShortCodePremiumSlugReleased: 'Short code released by a premium slug',
  TicketAssigned: 'Ticket assigned',
  TicketMessagePosted: 'Replied to a ticket',
  TicketStatusChanged: 'Ticket status changed',
};

export const actionWording = (action: string): string => actionWords[action] ?? action;

/** Who acted: the admin's address, an erased admin as such, the operator's command line, the system. */
export function actorWording(actor: AuditActor): string {
  if (actor.kind === 'operator') return 'Operator (command line)';
  if (actor.kind === 'system') return 'System';
  if (actor.erased) return 'Erased admin';
  return actor.email ?? actor.id;
}

/** What the entry says besides its action, as short `name: value` parts ("reason: spam"). */
export function detailsWording(details: AuditEntry['details']): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== '')
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** The target, for a history that is not about one target: `user 0190…`. */
export const targetWording = (target: AuditEntry['target']): string => `${target.type} ${target.id}`;
