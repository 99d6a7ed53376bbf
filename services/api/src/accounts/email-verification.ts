import { createHash, randomBytes } from 'node:crypto';
import { accountEndpoints } from '@sniplink/contracts';
import { ConflictError, NotFoundError, RateLimitedError } from '@sniplink/domain';
import type { Clock, Database, Logger, Mailer } from '@sniplink/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { bodiless, featureRoutes, operation } from '../http/route-schema';
import type { AccountService } from './accounts';
import { currentSession, sessionOf } from './current-session';
import type { SessionStore } from './sessions';

export interface EmailVerificationDeps {
  accounts: AccountService;
  sessions: SessionStore;
  db: Kysely<Database>;
  mailer: Mailer;
  /** The address users see; the mailed link leads to `${publicUrl}${VERIFY_EMAIL_PATH}`. */
  publicUrl: string;
  log: Logger;
  /** A link's 24 hours, and the hour its mails are counted in, are measured on it. */
  clock: Clock;
}

export const VERIFY_EMAIL_PATH = '/api/auth/verify-email';
/** How long a verification link works; a new one can be asked for from the app. */
const TOKEN_LIFETIME_MS = 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/** Verification mails per account per hour (the one sent at sign-up included). */
const MAILS_PER_HOUR = 3;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * E-mail verification: a single-use link mailed at sign-up (and again on request), whose opening records
 * `UserEmailVerified` on the user's stream. Using the app never waits for it; joining an identity
 * provider's account to this one does (oidc.ts), so that registering someone else's address first
 * gains nothing.
 */
export class EmailVerification {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: EmailVerificationDeps) {}

  /**
   * Mails a fresh link off the response path (a slow mail server must not hold the answer up); a
   * failure is logged. Throws 429 when the account has had its mails this hour, 409 when verified.
   */
  async sendLater(userId: string): Promise<void> {
    const { accounts, db, log } = this.deps;
    const { emailHash, verified } = await accounts.emailStatus(userId);
    if (verified) throw new ConflictError('CONFLICT', 'Your e-mail address is already confirmed');
    if (!emailHash) throw new NotFoundError('No such account');
    const to = (await accounts.user(userId))?.email;
    if (!to) return;
    const token = await issueToken(db, userId, emailHash, this.deps.clock.now());
    const task = this.deps.mailer
      .send(verificationMail(to, `${this.deps.publicUrl}${VERIFY_EMAIL_PATH}?token=${token}`))
      .catch((error: unknown) =>
        log.error({ err: error }, 'e-mail verification: the mail could not be sent'),
      );
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
  }

  /** Records the verification a valid link stands for; false for an unknown, used or expired link. */
  async redeem(token: string): Promise<boolean> {
    const { db, accounts } = this.deps;
    const now = this.deps.clock.now();
    const row = await db
      .selectFrom('email_verification_tokens')
      .select(['user_id', 'email_hash'])
      .where('token_hash', '=', hashOf(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return false;
    try {
      // Idempotent: a link opened twice at once records the verification once.
      await accounts.command(row.user_id, { type: 'VerifyEmail', emailHash: row.email_hash });
    } catch (error) {
      // The account was erased, or no longer has the address the link was mailed to.
      if (error instanceof ConflictError || error instanceof NotFoundError) return false;
      throw error;
    }
    await db
      .updateTable('email_verification_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashOf(token))
      .execute();
    return true;
  }

  /** Mails still being sent when the server stops are finished first, not cut off. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}

/** The link of the mail, and the signed-in user's "send it again"; answers what sign-up mails with. */
export async function emailVerificationRoutes(
  app: FastifyInstance,
  deps: EmailVerificationDeps,
): Promise<EmailVerification> {
  const verification = new EmailVerification(deps);
  app.addHook('onClose', () => verification.settle());

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(VERIFY_EMAIL_PATH, { schema: VERIFY }, async (request, reply) => {
    const { token } = request.query;
    const valid = typeof token === 'string' && token.length <= 200 && (await verification.redeem(token));
    return reply.header('cache-control', 'no-store').redirect(await landing(request, deps, valid), 302);
  });
  api.route({
    ...RESEND,
    handler: async (request, reply) => {
      const session = sessionOf(request);
      await verification.sendLater(session.userId);
      return reply.code(202).send({ ok: true });
    },
  });
  return verification;
}

const VERIFY = operation({
  tag: 'Navigations',
  operationId: 'confirmEmail',
  summary: 'The confirmation link mailed at sign-up (a browser navigation)',
  description: 'Works once, for 24 hours; confirms the address of the account it was mailed for.',
  session: 'optional',
  querystring: z.object({ token: z.unknown().optional().describe('From the mail') }),
  answers: {
    302: bodiless('Redirect', {
      Location:
        '`/home?emailVerified=1` (signed out: `/login?…`); `emailVerified=expired` for a used, expired or unknown link',
    }),
  },
});

const route = featureRoutes(accountEndpoints, { tag: 'Accounts' });

const RESEND = route('resendEmailConfirmation', {
  summary: 'Mail the e-mail confirmation link again',
  description: 'At most 3 confirmation mails an hour per account (the one sent at sign-up included).',
  session: 'required',
  answers: { 202: 'Accepted: the mail is on its way' },
  errors: { 409: ['CONFLICT'], 429: ['RATE_LIMITED'] },
});

/** Signed in: the dashboard says how it went (a toast); signed out: the sign-in page does. */
async function landing(request: FastifyRequest, deps: EmailVerificationDeps, valid: boolean) {
  const outcome = valid ? '1' : 'expired';
  const signedIn = (await currentSession(request, deps.sessions)) !== null;
  return `${signedIn ? '/home' : '/login'}?emailVerified=${outcome}`;
}

/**
 * Stores a new token (only its SHA-256) unless the account has had MAILS_PER_HOUR in the last hour; the
 * per-account lock makes the count and the insert one step, so parallel requests cannot exceed it.
 */
async function issueToken(
  db: Kysely<Database>,
  userId: string,
  emailHash: string,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`verify-email:${userId}`}, 0))`.execute(trx);
    const recent = await trx
      .selectFrom('email_verification_tokens')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('user_id', '=', userId)
      .where('created_at', '>', new Date(now.getTime() - HOUR_MS))
      .executeTakeFirstOrThrow();
    if (Number(recent.count) >= MAILS_PER_HOUR) {
      const retryMs = (recent.oldest?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime();
      throw new RateLimitedError(
        'Too many confirmation mails this hour; please try again later',
        Math.max(1, Math.ceil(retryMs / 1000)),
      );
    }
    await trx
      .insertInto('email_verification_tokens')
      .values({
        token_hash: hashOf(token),
        user_id: userId,
        email_hash: emailHash,
        created_at: now,
        expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS),
      })
      .execute();
    return token;
  });
}

function verificationMail(to: string, link: string) {
  return {
    to,
    subject: 'Confirm your e-mail address for Sniplink',
    text: [
      'Hello,',
      '',
      'Someone (hopefully you) created a Sniplink account with this e-mail address.',
      'To confirm that the address is yours, open this link within the next 24 hours:',
      '',
      link,
      '',
      'Confirming lets you sign in to this account with your identity provider as well.',
      '',
      'If you did not create this account, do not open the link: just ignore this e-mail.',
      '',
      'Sniplink',
    ].join('\n'),
  };
}
