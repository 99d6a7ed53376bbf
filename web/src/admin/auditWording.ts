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
  ApiKeyRevoked: 'API key revoked',
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
  ProhibitedWordAdded: 'Prohibited word added',
  ProhibitedWordSwitchedOff: 'Prohibited word switched off',
  ProhibitedWordSwitchedOn: 'Prohibited word switched on',
  ProhibitedWordDeleted: 'Prohibited word deleted',
  ProtectedBrandAdded: 'Protected brand added',
  ProtectedBrandSwitchedOff: 'Protected brand switched off',
  ProtectedBrandSwitchedOn: 'Protected brand switched on',
  ProtectedBrandDeleted: 'Protected brand deleted',
  LinkCodeApproved: 'Short code approved',
  LinkCodeRejected: 'Short code rejected',
  LinkCodeChanged: 'Short code changed',
  ShortCodeClaimed: 'Short code claimed',
  ShortCodeReleased: 'Short code released',
  TicketAssigned: 'Ticket assigned',
  TicketMessagePosted: 'Replied to a ticket',
  TicketStatusChanged: 'Ticket status changed',
  PageCopyDraftSaved: 'Page copy draft saved',
  PageCopyPublished: 'Page copy published',
  SeoSettingsUpdated: 'SEO settings updated',
  ProjectionRebuildRequested: 'Read model rebuild started',
  AdminDocCreated: 'Doc added',
  AdminDocEdited: 'Doc edited',
  AdminDocDeleted: 'Doc deleted',
  PersonalDataRevealed: 'Personal data revealed',
};

export const actionWording = (action: string): string => actionWords[action] ?? action;

/** Who acted: the admin's address, an erased admin as such, the operator's command line, the system. */
export function actorWording(actor: AuditActor): string {
  if (actor.kind === 'operator') return 'Operator (command line)';
  if (actor.kind === 'system') return 'System';
  if (actor.erased) return 'Erased admin';
  return actor.email ?? actor.id;
}

/**
 * Fields an admin has no use for: who acted (the Who column says it), and the ids, revisions and
 * references the system keeps to order and join events.
 */
const internalField = /^(by|id|reference|subjectHash|emailHash)$|(Id|Ids|Revision|Hash)$/;
const idLike = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Names that read better otherwise than as their camelCase split into words. */
const fieldWords: Record<string, string> = {
  isActive: 'active',
  isAvailable: 'for sale',
  targetAudience: 'audience',
  provider: 'through',
  stripePriceId: 'Stripe price',
  isPublic: 'public',
  ogTitle: 'OG title',
  ogDescription: 'OG description',
  ogImage: 'OG image',
  requiresApproval: 'requires approval',
  previousCode: 'previous code',
};

const fieldName = (name: string): string =>
  fieldWords[name] ?? name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A value in words, or undefined when nothing of it is worth showing. */
function valueWording(name: string, value: unknown): string | undefined {
  if (value === null || value === '' || value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number')
    return /price|cents/i.test(name) ? dollars.format(value / 100) : value.toLocaleString('en-US');
  if (typeof value === 'string') return idLike.test(value) ? undefined : value;
  if (Array.isArray(value)) {
    const items = value.map((item) => valueWording(name, item)).filter((item) => item !== undefined);
    return items.length > 0 ? items.join(', ') : undefined;
  }
  if (typeof value === 'object') return detailsWording(value as Record<string, unknown>) || undefined;
  return undefined;
}

/**
 * What the entry says besides its action, in words ("reason: spam", "plan: monthly"): ids, revisions
 * and who acted are left out, a price is in dollars, a yes/no is yes or no.
 */
export function detailsWording(details: AuditEntry['details']): string {
  return Object.entries(details)
    .filter(([name]) => !internalField.test(name))
    .map(([name, value]) => {
      const wording = valueWording(name, value);
      return wording === undefined ? undefined : `${fieldName(name)}: ${wording}`;
    })
    .filter((part) => part !== undefined)
    .join(', ');
}

/** The target, for a history that is not about one target: `user 0190…`. */
export const targetWording = (target: AuditEntry['target']): string => `${target.type} ${target.id}`;
