import { z } from 'zod';
import { subscriptionStatuses } from '../accounts/api';
import { planId } from '../accounts/events';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { pageNumber } from '../paging';

/**
 * Who changed an admin flag: the acting admin's user id, `operator` (`npm run user:admin`) or `system`
 * (`ADMIN_EMAILS` at sign-up or at start).
 */
export const adminActor = z.union([z.uuid(), z.enum(['operator', 'system'])]);
export type AdminActor = z.infer<typeof adminActor>;

/**
 * The admin flag on a user's stream `user-{userId}` (joined to the user decider). `rosterRevision` is the
 * revision of the `admin-roster` stream that decided the change: the user's stream mirrors the roster, and
 * a mirror older than the one it holds changes nothing.
 */
export const adminFlagEvents = eventGroup(
  defineEvent({
    type: 'AdminGranted',
    version: 1,
    schema: z.object({ by: adminActor, rosterRevision: z.number().int().nonnegative() }),
  }),
  defineEvent({
    type: 'AdminRevoked',
    version: 1,
    schema: z.object({ by: adminActor, rosterRevision: z.number().int().nonnegative() }),
  }),
);
export type AdminFlagEvent = EventsIn<typeof adminFlagEvents>;

/** The admin roster's stream: one of its kind, `admin-roster`. */
export const adminRosterStream = stream('admin');
export const ADMIN_ROSTER = 'roster';

/**
 * The stream `admin-roster`: the set of admins, one stream, so that "at least one admin remains" is guarded
 * by its expected revision across processes (docs/architecture.md, "Which stream guards which rule").
 */
export const adminRosterEvents = eventGroup(
  defineEvent({
    type: 'AdminRosterJoined',
    version: 1,
    schema: z.object({ userId: z.uuid(), by: adminActor }),
  }),
  defineEvent({
    type: 'AdminRosterLeft',
    version: 1,
    schema: z.object({ userId: z.uuid(), by: adminActor }),
  }),
);
export type AdminRosterEvent = EventsIn<typeof adminRosterEvents>;

/** The Users tab's page size. */
export const ADMIN_USERS_PAGE_SIZE = 20;

const search = z.string().trim().max(200, 'must be at most 200 characters').default('');

/**
 * The deepest page: the matches counted (10,000) in pages of 20. Past them, a narrower search (or the export)
 * finds the rest; a deeper offset would cost a pass over the rows it skips.
 */
export const ADMIN_USERS_MAX_PAGE = 500;

/** `GET /api/admin/users?search=…&page=…`: e-mail or full name, ignoring case; pages from 1. */
export const adminUsersQuery = z.object({
  search,
  page: pageNumber(ADMIN_USERS_MAX_PAGE),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

/** `GET /api/admin/users/export?search=…`: every user the search matches, as CSV. */
export const adminUsersExportQuery = z.object({ search });

/**
 * A user as the console shows it, plus `suspended` and `liveLinks`. Never a
 * password hash, a session, a key or a token.
 */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  isAdmin: z.boolean(),
  suspended: z.boolean(),
  /** `suspended` while suspended; else `active` (Pro) or `inactive`, as the user JSON says. */
  subscriptionStatus: z.enum(subscriptionStatuses),
  subscriptionPlan: planId.nullable(),
  linksCreatedThisMonth: z.number().int(),
  /** Links the user holds now. */
  liveLinks: z.number().int(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersPageSchema = z.object({
  users: z.array(adminUserSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** How many match, counted up to 10,000; past that `totalCapped` is true (narrow the search, or export). */
  total: z.number().int(),
  totalCapped: z.boolean(),
});
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

/** `PATCH /api/admin/users/{id}/admin`. */
export const setAdminBody = z.object({ isAdmin: z.boolean() });
export type SetAdminBody = z.infer<typeof setAdminBody>;
