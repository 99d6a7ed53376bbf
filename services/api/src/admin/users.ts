import { Readable } from 'node:stream';
import { ADMIN_USERS_PAGE_SIZE, type AdminUser, userAdminEndpoints } from '@sniplink/contracts';
import { NotFoundError } from '@sniplink/domain';
import type { Clock, Database } from '@sniplink/platform';
import { type ListedUser, listedUser, searchUsers, usersMatching } from '@sniplink/projections';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type AccountService, linksCreatedThisMonth, planAt } from '../accounts/accounts';
import { csvRecords } from '../analytics/csv';
import { featureRoutes, text } from '../http/route-schema';
import { ADMIN } from './routes';

export interface UserAdminRoutesDeps {
  accounts: AccountService;
  /** The users read model (search, export, the answers' rows). */
  db: Kysely<Database>;
  /** "This month" and Pro at the instant asked; the export's file name. */
  clock: Clock;
}

/**
 * The console's Users tab: the list with its search and pages, the
 * CSV export, the admin switch, suspend and unsuspend.
 */
export async function userAdminRoutes(admin: FastifyInstance, deps: UserAdminRoutesDeps) {
  const { accounts, db, clock } = deps;
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(userAdminEndpoints, ADMIN);

  api.route({
    ...route('listUsers', {
      summary: 'Users, searched and paged',
      description: `Newest first, ${ADMIN_USERS_PAGE_SIZE} a page. \`search\` matches a part of the e-mail address or of the full name ("first last"), ignoring case. Erased accounts are not listed. \`total\` counts the matches up to 10,000 (\`totalCapped\` beyond).`,
      answers: { 200: 'A page of users and how many match' },
    }),
    handler: async (request, reply) => {
      const { search, page } = request.query;
      const { users, total, totalCapped } = await searchUsers(db, {
        search,
        page,
        pageSize: ADMIN_USERS_PAGE_SIZE,
      });
      const now = clock.now();
      return reply.header('cache-control', 'no-store').send({
        users: users.map((user) => toAdminUser(user, now)),
        page,
        pageSize: ADMIN_USERS_PAGE_SIZE,
        total,
        totalCapped,
      });
    },
  });

  api.route({
    ...route('exportUsers', {
      summary: 'Every user the search matches, as CSV (a download)',
      description:
        'Streamed in batches. A cell starting with =, +, -, @, a tab or a carriage return gets a leading apostrophe, so a spreadsheet shows it as text.',
      answers: {
        200: {
          ...text(EXPORT_HEADER.join(', '), 'text/csv'),
          headers: { 'Content-Disposition': 'attachment; filename="sniplink-users-{date}.csv"' },
        },
      },
    }),
    handler: async (request, reply) => {
      const batches = usersMatching(db, request.query.search);
      // The first batch is read before answering: a database that fails now is a JSON error, not a cut file.
      const first = await batches.next();
      const now = clock.now();
      async function* file() {
        yield csvRecords([EXPORT_HEADER]);
        if (first.done) return;
        yield csvRecords(first.value.map((user) => toCsvRecord(toAdminUser(user, now))));
        for await (const batch of batches)
          yield csvRecords(batch.map((user) => toCsvRecord(toAdminUser(user, now))));
      }
      const date = now.toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sniplink-users-${date}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(file()));
    },
  });

  api.route({
    ...route('setUserAdmin', {
      summary: "Grant or remove a user's admin flag",
      description:
        'Recorded as `AdminGranted` / `AdminRevoked` on the user, with the acting admin. At least one admin always remains: the last admin removing their own flag is a 409.',
      answers: { 200: 'The user as it stands now' },
      errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'], 403: ['ADMIN_REQUIRED'] },
    }),
    handler: async (request) => {
      const id = existingId(request.params.id);
      await accounts.admins.set(id, request.body.isAdmin);
      return adminUserById(deps, id);
    },
  });

  api.route({
    ...route('setUserSuspended', {
      summary: 'Suspend or unsuspend a user',
      description:
        'Suspending ends every session of the account at once and blocks sign-in until unsuspended; the plan is kept.',
      answers: { 200: 'The user as it stands now' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const id = existingId(request.params.id);
      await accounts.requireUser(id);
      if (request.body.suspended) await accounts.suspend(id, null);
      else await accounts.unsuspend(id);
      return adminUserById(deps, id);
    },
  });
}

/** A malformed id names no account: 404, as an unknown one (never a database error on the uuid column). */
function existingId(id: string): string {
  if (!z.uuid().safeParse(id).success) throw new NotFoundError('No such user');
  return id;
}

async function adminUserById({ db, clock }: UserAdminRoutesDeps, userId: string): Promise<AdminUser> {
  const user = await listedUser(db, userId);
  if (!user) throw new NotFoundError('No such user');
  return toAdminUser(user, clock.now());
}

/** The console's user: `subscriptionStatus` is `suspended` while suspended, else Pro (`active`) or not. */
function toAdminUser({ row, liveLinks, subscriptions }: ListedUser, now: Date): AdminUser {
  const { pro, plan } = planAt(row, subscriptions, now);
  return {
    id: row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    isAdmin: row.is_admin,
    suspended: row.suspended,
    subscriptionStatus: row.suspended ? 'suspended' : pro ? 'active' : 'inactive',
    subscriptionPlan: plan,
    linksCreatedThisMonth: linksCreatedThisMonth(row, now),
    liveLinks,
    createdAt: row.created_at.toISOString(),
  };
}

const EXPORT_HEADER = [
  'ID',
  'Email',
  'First Name',
  'Last Name',
  'Admin',
  'Status',
  'Plan',
  'Links Created This Month',
  'Live Links',
  'Joined',
];

const toCsvRecord = (user: AdminUser) => [
  user.id,
  user.email ?? '',
  user.firstName ?? '',
  user.lastName ?? '',
  user.isAdmin ? 'yes' : 'no',
  user.subscriptionStatus,
  user.subscriptionPlan ?? 'free',
  user.linksCreatedThisMonth,
  user.liveLinks,
  user.createdAt,
];
