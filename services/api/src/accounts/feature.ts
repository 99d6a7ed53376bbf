import * as accountsTable from '@sniplink/platform/migrations/2026-11-22T04-accounts';
import * as emailVerification from '@sniplink/platform/migrations/2026-11-25T10-email-verification';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineFeature } from '../feature';
import { runAccountMaintenance } from './maintenance';
import { createOidcLogin, OIDC_CALLBACK_PATH } from './oidc';
import { accountRoutes } from './routes';
import { SignupThrottle } from './signup-throttle';

/** What runs once a user signs in (another feature's, such as the demo claiming a visitor's links). */
export type AfterSignIn = (request: FastifyRequest, reply: FastifyReply, userId: string) => Promise<void>;

/**
 * Accounts: sign-up, sign-in (password or OIDC), password reset, e-mail verification, the profile. The
 * account service itself starts with the runtime (the CLIs use it too); other features add what runs
 * after a sign-in with `afterSignIn`.
 */
export const accountsFeature = defineFeature({
  name: 'accounts',
  build: () => {
    const afterSignIn: AfterSignIn[] = [];
    return { afterSignIn };
  },
  routes: ({ afterSignIn: hooks }, ports) => {
    const { config, accounts, sessions, cookie, db, clock } = ports;
    const afterSignIn: AfterSignIn = async (request, reply, userId) => {
      for (const hook of hooks) await hook(request, reply, userId);
    };
    const mail = { accounts, db, mailer: ports.mailer, publicUrl: config.publicUrl, log: ports.log, clock };
    return [
      (api) =>
        accountRoutes(api, {
          accounts,
          sessions,
          cookie,
          signupThrottle: new SignupThrottle({ limiters: ports.limiters }, config.signupLimits),
          afterSignIn,
          passwordReset: mail,
          emailVerification: { ...mail, sessions },
          oidc: config.oidc
            ? createOidcLogin({
                ...config.oidc,
                redirectUri: `${config.publicUrl}${OIDC_CALLBACK_PATH}`,
                db,
                accounts,
                sessions,
                cookie,
                clock,
                afterSignIn,
              })
            : undefined,
        }),
    ];
  },
  housekeeping:
    (_services, { db, eventStore, keyring, log, clock }) =>
    () =>
      runAccountMaintenance({ db, eventStore, keyring, log, clock }),
  migrations: {
    '2026-11-22T04-accounts': accountsTable,
    '2026-11-25T10-email-verification': emailVerification,
  },
});
