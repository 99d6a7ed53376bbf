import { suspendUserBody, userStandingSchema } from '@sniplink/contracts';
import { NotFoundError } from '@sniplink/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountService } from '../accounts/accounts';
import { json, operation } from '../http/route-schema';

export interface UserAdminRoutesDeps {
  accounts: AccountService;
}

const userIdParams = z.object({ id: z.string() });

/** The console's Users tab (admin-console.md section 2): suspend and unsuspend. */
export async function userAdminRoutes(admin: FastifyInstance, { accounts }: UserAdminRoutesDeps) {
  const api = admin.withTypeProvider<ZodTypeProvider>();

  api.patch(
    '/users/:id/suspend',
    {
      schema: operation({
        tag: 'Admin',
        summary: 'Suspend or unsuspend a user',
        description:
          'Suspending ends every session of the account at once and blocks sign-in until unsuspended; the plan is kept.',
        session: 'admin',
        params: userIdParams,
        body: suspendUserBody,
        answers: { 200: json('The account as it stands now', userStandingSchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const { id } = request.params;
      // A malformed id names no account: 404, as an unknown one (never a database error).
      if (!z.uuid().safeParse(id).success) throw new NotFoundError('No such user');
      await accounts.requireUser(id);
      if (request.body.suspended) await accounts.suspend(id, null);
      else await accounts.unsuspend(id);
      return { id, suspended: request.body.suspended };
    },
  );
}
