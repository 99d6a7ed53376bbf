import { createHash, randomBytes } from 'node:crypto';
import { accountEndpoints } from '@sniplink/contracts';
import { ValidationError } from '@sniplink/domain';
import type { Clock, Database, Logger, Mailer } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { featureRoutes } from '../http/route-schema';
import type { AccountService } from './accounts';

export interface PasswordResetDeps {
  accounts: AccountService;
  db: Kysely<Database>;
  mailer: Mailer;
  /** The address users see; the link in the mail leads to `${publicUrl}/reset-password`. */
  publicUrl: string;
  log: Logger;
  /** A link's hour, and the hour its mails are counted in, are measured on it. */
  clock: Clock;
}

/** How long a reset link works. */
const TOKEN_LIFETIME_MS = 3_600_000;
const HOUR_MS = 3_600_000;
/** Reset mails per account per hour: enough for a lost mail, too few to flood someone's inbox. */
const MAILS_PER_HOUR = 3;

const route = featureRoutes(accountEndpoints, { tag: 'Accounts' });

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Password reset by e-mail: a single-use link valid for an hour. The request
 * always answers 202 alike, so it never tells whether an account holds the address.
 */
export async function passwordResetRoutes(app: FastifyInstance, deps: PasswordResetDeps): Promise<void> {
  const pending = new Set<Promise<void>>();
  // A mail still being sent when the server stops is finished first, not cut off mid-way.
  app.addHook('onClose', async () => {
    await Promise.allSettled(pending);
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.route({
    ...REQUEST_RESET,
    handler: async (request, reply) => {
      const { email } = request.body;
      // Off the response path: answering after the lookup and the mail would let timing reveal the account.
      const task = sendResetMail(deps, email).catch((error: unknown) => {
        deps.log.error({ err: error }, 'password reset: the mail could not be sent');
      });
      pending.add(task);
      void task.finally(() => pending.delete(task));
      return reply.code(202).send({ ok: true });
    },
  });

  api.route({
    ...CONFIRM_RESET,
    handler: async (request, reply) => {
      const { token, password } = request.body;
      const userId = await redeemToken(deps.db, token, deps.clock.now());
      if (!userId) {
        throw new ValidationError('This reset link is invalid or has expired', undefined, 'INVALID_TOKEN');
      }
      // Stores the new hash, records UserPasswordChanged and ends every session of the account.
      await deps.accounts.setPassword(userId, password, 'reset');
      // The link was mailed to the account's address: whoever used it holds that address.
      await deps.accounts.confirmEmail(userId);
      await retireUnusedTokens(deps.db, userId, deps.clock.now());
      return reply.send({ ok: true });
    },
  });
}

const REQUEST_RESET = route('requestPasswordReset', {
  summary: 'Mail a password-reset link',
  description:
    'Always 202, whether or not an account holds the address; at most 3 mails an hour per account.',
  answers: { 202: 'Accepted' },
});

const CONFIRM_RESET = route('resetPassword', {
  summary: 'Set a new password with a reset link',
  description: 'The link works once, for an hour; every session of the account ends.',
  answers: { 200: 'The password is changed' },
  errors: { 400: ['INVALID_TOKEN'] },
});

/** Looks the address up and mails a fresh link; does nothing for an unknown address or a throttled one. */
async function sendResetMail(deps: PasswordResetDeps, email: string): Promise<void> {
  const userId = await deps.accounts.findUserIdByEmail(email);
  if (!userId) return;
  // The account's own address, not the one typed: they match only after normalisation.
  const to = (await deps.accounts.user(userId))?.email;
  if (!to) return;
  const token = await issueToken(deps.db, userId, deps.clock.now());
  if (!token) {
    deps.log.info({ userId }, 'password reset: mail limit reached for this account, none sent');
    return;
  }
  await deps.mailer.send(resetMail(to, `${deps.publicUrl}/reset-password?token=${token}`));
}

/**
 * Stores a new token (only its SHA-256) unless the account has had MAILS_PER_HOUR in the last hour; the
 * per-account lock makes the count and the insert one step, so parallel requests cannot exceed it.
 */
async function issueToken(db: Kysely<Database>, userId: string, now: Date): Promise<string | null> {
  const token = randomBytes(32).toString('base64url');
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`password-reset:${userId}`}, 0))`.execute(trx);
    const recent = await trx
      .selectFrom('password_reset_tokens')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .where('created_at', '>', new Date(now.getTime() - HOUR_MS))
      .executeTakeFirstOrThrow();
    if (Number(recent.count) >= MAILS_PER_HOUR) return null;
    await trx
      .insertInto('password_reset_tokens')
      .values({
        token_hash: hashOf(token),
        user_id: userId,
        created_at: now,
        expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS),
      })
      .execute();
    return token;
  });
}

/** Marks the token used in the same statement that checks it, so two confirms cannot both succeed. */
async function redeemToken(db: Kysely<Database>, token: string, now: Date): Promise<string | null> {
  const row = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashOf(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Older links of the account stop working once the password has been reset with one of them. */
async function retireUnusedTokens(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

function resetMail(to: string, link: string) {
  return {
    to,
    subject: 'Reset your Sniplink password',
    text: [
      'Hello,',
      '',
      'Someone (hopefully you) asked to reset the password of your Sniplink account.',
      'To choose a new password, open this link within the next hour:',
      '',
      link,
      '',
      'The link works once. Resetting the password signs you out everywhere.',
      '',
      'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
      '',
      'Sniplink',
    ].join('\n'),
  };
}
