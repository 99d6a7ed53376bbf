import { ForbiddenError, UnauthorizedError } from '@sniplink/domain';
import {
  type CommandContext,
  currentCommandContext,
  enterChannel,
  type LogPosition,
} from '@sniplink/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentSession } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import type { Feature } from '../http/route-schema';

/** Every admin call's path starts here. */
export const ADMIN_PREFIX = '/api/admin';

/** What every console route shares: the Admin tag, an admin's session, and the scope's prefix. */
export const ADMIN: Feature = { tag: 'Admin', session: 'admin', under: ADMIN_PREFIX };

/**
 * One part of the console's API (stats, users, config, announcements, audit…) bound to its
 * dependencies: `(admin) => configAdminRoutes(admin, deps)`. Its paths are relative to `/api/admin`
 * (`/config`), and every route it registers is behind the admin gate.
 */
export type AdminRouteGroup = (admin: FastifyInstance) => Promise<void>;

export interface AdminRoutesDeps {
  sessions: SessionStore;
  /** Whether the account holds the admin flag now. */
  isAdmin(userId: string): Promise<boolean>;
  groups: readonly AdminRouteGroup[];
  /**
   * Resolves once the audit history holds the events up to `position` (bounded; a timeout still lets the
   * answer go): a console change answers once its entry can be read, as every command waits for the read
   * model the user looks at next.
   */
  untilAudited(position: LogPosition): Promise<unknown>;
}

const admins = new WeakMap<FastifyRequest, string>();
/** Each console request's command context: what it appended, for the wait before it answers. */
const contexts = new WeakMap<FastifyRequest, CommandContext>();

/**
 * The admin console's API. The gate is a hook on the whole `/api/admin` scope, not a line in each route,
 * so a route added later cannot forget it: no live session 401, a session that is not an admin's 403,
 * both before the body or query is looked at. Once through, the request's commands are the console's:
 * every event they append records the admin as its actor and `admin-console` as its channel, which is
 * what the audit history lists (so a route added later is audited without a line of its own).
 */
export async function adminRoutes(app: FastifyInstance, deps: AdminRoutesDeps): Promise<void> {
  await app.register(
    async (admin) => {
      admin.addHook('preValidation', async (request) => {
        const session = await currentSession(request, deps.sessions);
        if (!session) throw new UnauthorizedError();
        const { userId } = session;
        if (!(await deps.isAdmin(userId))) {
          throw new ForbiddenError('ADMIN_REQUIRED', 'Admin access required.');
        }
        admins.set(request, userId);
        enterChannel('admin-console');
        const context = currentCommandContext();
        if (context) contexts.set(request, context);
      });
      admin.addHook('onSend', async (request, _reply, payload) => {
        const appended = contexts.get(request)?.lastAppended;
        if (appended) await deps.untilAudited(appended);
        return payload;
      });
      for (const group of deps.groups) await group(admin);
    },
    { prefix: ADMIN_PREFIX },
  );
}

/** The admin making this request (the gate has let it through). */
export function actingAdmin(request: FastifyRequest): string {
  const userId = admins.get(request);
  if (!userId) throw new Error(`${request.url} is not behind the admin gate`);
  return userId;
}
