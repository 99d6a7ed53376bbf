import {
  type EmailClaimEvent,
  emailClaimStream,
  type LinkLimits,
  linkAllowance,
  type ProfileBody,
  type RegisterBody,
  type User,
  userStream,
} from '@sniplink/contracts';
import {
  currentSubscription,
  type EmailClaimCommand,
  type EmailClaimState,
  emailClaimDecider,
  ForbiddenError,
  NotFoundError,
  normaliseEmail,
  UnauthorizedError,
  type UserCommand,
  type UserState,
  type UserStreamEvent,
  userDecider,
  utcMonthOf,
} from '@sniplink/domain';
import {
  type CommandPipeline,
  commandHandler,
  identifyActor,
  type Keyring,
  keyedHash,
  type LogPosition,
} from '@sniplink/platform';
import {
  type BilledSubscription,
  billingOfUser,
  linksReadModel,
  liveLinkCount,
  type UserBilling,
  type UserRow,
  userById,
  usersReadModel,
} from '@sniplink/projections';
import type { ServiceDeps } from '../shared/service-deps';
import { linkLimitsOf, type Settings } from '../shared/settings';
import { AdminFlags } from './admin-flags';
import type { LoginThrottle } from './login-throttle';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import type { SessionStore } from './sessions';

export interface AccountDeps extends ServiceDeps {
  keyring: Keyring;
  /** Secret for the keyed hash that names e-mail claim streams. */
  emailSecret: Buffer;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** Addresses whose accounts are made admins at sign-up (and at start, once: `AdminFlags.reconcile`). */
  adminEmails: readonly string[];
  /** The admin's settings in force: the link allowances. */
  settings: Settings;
}

/** How long erasure keeps waiting for the users read model once the ordinary 2 s wait has given up. */
const ERASURE_PROJECTION_WAIT_MS = 30_000;

/**
 * Accounts: registration, sign-in, profile, password, plan, suspension and erasure. Commands go through the
 * user's stream (and the e-mail claim stream); answers are read from the `users` read model once it has
 * caught up.
 */
export class AccountService {
  /** The user's stream; an answer waits for the users read model. */
  private readonly users: CommandPipeline<UserCommand, UserState, UserStreamEvent>;
  /** Who holds an address: at most one account. */
  private readonly emailClaims: CommandPipeline<EmailClaimCommand, EmailClaimState, EmailClaimEvent>;
  /** The admin flag: the `admin-roster` stream and its mirror on the user's stream. */
  readonly admins: AdminFlags;
  /** What a suspension ends besides the sessions (the buyer's open payments): `endOnSuspension`. */
  private readonly suspensionEnds: ((userId: string) => Promise<void>)[] = [];
  /** What an erasure ends besides the sessions and credentials (the API keys): `endOnErasure`. */
  private readonly erasureEnds: ((userId: string) => Promise<void>)[] = [];

  constructor(private readonly deps: AccountDeps) {
    this.users = commandHandler(deps, {
      decider: userDecider,
      stream: userStream,
      projection: usersReadModel,
    });
    this.emailClaims = commandHandler(deps, { decider: emailClaimDecider, stream: emailClaimStream });
    this.admins = new AdminFlags({
      eventStore: deps.eventStore,
      clock: deps.clock,
      userCommand: (userId, command, actorId) => this.command(userId, command, actorId),
    });
  }

  emailHash(email: string): string {
    return keyedHash(this.deps.emailSecret, normaliseEmail(email));
  }

  /** Names a provider's subject without storing it: `sub` is only unique within its issuer. */
  subjectHash(issuer: string, subject: string): string {
    return keyedHash(this.deps.emailSecret, `oidc-subject ${issuer} ${subject}`);
  }

  /** Creates a password account: claims the address, stores the hash, then records the registration. */
  async register(input: RegisterBody): Promise<string> {
    const passwordHash = await hashPassword(input.password);
    const userId = this.deps.ids.newId();
    // Whoever signs up is the new user: what this request appends from now on is theirs.
    identifyActor(userId);
    const emailHash = this.emailHash(input.email);
    await this.claimEmail(emailHash, userId);
    try {
      await this.deps.db
        .insertInto('user_credentials')
        .values({ user_id: userId, password_hash: passwordHash })
        .execute();
      await this.recordRegistration(userId, emailHash, {
        email: input.email.trim(),
        firstName: input.firstName,
        lastName: input.lastName,
        via: 'password',
      });
    } catch (error) {
      await this.releaseEmail(emailHash, userId);
      await this.deps.db.deleteFrom('user_credentials').where('user_id', '=', userId).execute();
      throw error;
    }
    await this.grantIfConfigured(userId, input.email);
    return userId;
  }

  /**
   * Creates an account for a verified address from an identity provider (no password), or returns the
   * account that already holds the address.
   */
  async registerExternal(input: {
    email: string;
    firstName?: string | null;
    lastName?: string | null;
    profileImageUrl?: string | null;
  }): Promise<{ userId: string; created: boolean }> {
    const existing = await this.findUserIdByEmail(input.email);
    if (existing) return { userId: existing, created: false };
    const userId = this.deps.ids.newId();
    // Whoever signs up is the new user: what this request appends from now on is theirs.
    identifyActor(userId);
    const emailHash = this.emailHash(input.email);
    await this.claimEmail(emailHash, userId);
    try {
      await this.recordRegistration(userId, emailHash, { ...input, email: input.email.trim(), via: 'oidc' });
    } catch (error) {
      await this.releaseEmail(emailHash, userId);
      throw error;
    }
    await this.grantIfConfigured(userId, input.email);
    return { userId, created: true };
  }

  /** `ADMIN_EMAILS` makes the first admins: granted at sign-up by `system`. */
  private async grantIfConfigured(userId: string, email: string): Promise<void> {
    if (this.deps.adminEmails.includes(normaliseEmail(email))) await this.admins.set(userId, true, 'system');
  }

  /**
   * At start: the accounts of `ADMIN_EMAILS` whose streams never had an admin event are granted, once, and
   * admin changes a crash cut in half are completed (`AdminFlags.reconcile`).
   */
  async reconcileAdmins(): Promise<void> {
    const configured: string[] = [];
    for (const email of this.deps.adminEmails) {
      const userId = await this.findUserIdByEmail(email);
      if (userId) configured.push(userId);
    }
    await this.admins.reconcile(configured);
  }

  /** The account holding this address now (from its claim stream, never from a lagging read model). */
  async findUserIdByEmail(email: string): Promise<string | null> {
    const state = await this.emailClaims.load(this.emailHash(email));
    return state.holder;
  }

  /**
   * Checks a password sign-in; throws 429, 401 INVALID_CREDENTIALS or 403 ACCOUNT_SUSPENDED. An account
   * that has had many failures answers slowly (LoginThrottle), an unknown address alike.
   */
  async authenticate(email: string, password: string, ip: string): Promise<string> {
    const attempt = await this.deps.throttle.begin(this.emailHash(email), ip);
    const userId = await this.findUserIdByEmail(email);
    const credentials = userId
      ? await this.deps.db
          .selectFrom('user_credentials')
          .select('password_hash')
          .where('user_id', '=', userId)
          .executeTakeFirst()
      : undefined;
    const valid = credentials
      ? await verifyPassword(credentials.password_hash, password)
      : await verifyAgainstNothing(password);
    if (!valid || !userId) {
      throw new UnauthorizedError('INVALID_CREDENTIALS', 'The e-mail address or password is not correct');
    }
    await attempt.succeeded();
    await this.assertMaySignIn(userId);
    return userId;
  }

  /**
   * The account's address (keyed hash) and whether its holder confirmed it, from the user's stream: the
   * users read model may lag behind a link opened a moment ago.
   */
  async emailStatus(userId: string): Promise<{ emailHash: string | null; verified: boolean }> {
    const state = await this.users.load(userId);
    return state.status === 'active'
      ? { emailHash: state.emailHash, verified: state.emailVerified }
      : { emailHash: null, verified: false };
  }

  /** Records that the holder of the account's current address opened a link mailed to it. */
  async confirmEmail(userId: string): Promise<void> {
    const { emailHash, verified } = await this.emailStatus(userId);
    if (emailHash && !verified) await this.command(userId, { type: 'VerifyEmail', emailHash });
  }

  /** A suspended or erased account cannot start a session, whichever way it signs in. */
  async assertMaySignIn(userId: string): Promise<void> {
    const state = await this.users.load(userId);
    if (state.status !== 'active')
      throw new UnauthorizedError('INVALID_CREDENTIALS', 'The e-mail address or password is not correct');
    if (state.suspended)
      throw new ForbiddenError('ACCOUNT_SUSPENDED', 'This account is suspended; please contact support');
  }

  /** The user as the API shows it, or null when the account does not exist (or was erased). */
  async user(userId: string): Promise<User | null> {
    const [row, held, billing] = await Promise.all([
      userById(this.deps.db, userId),
      liveLinkCount(this.deps.db, userId),
      billingOfUser(this.deps.db, userId),
    ]);
    if (!row || row.erased) return null;
    const limits = linkLimitsOf(this.deps.settings);
    return toUserJson(row, { held, billing, limits }, this.deps.clock.now());
  }

  async updateProfile(userId: string, body: ProfileBody): Promise<User> {
    const blankToNull = (value: string | null | undefined) =>
      value === undefined ? undefined : value?.trim() || null;
    const firstName = blankToNull(body.firstName);
    const lastName = blankToNull(body.lastName);
    await this.command(userId, {
      type: 'UpdateProfile',
      firstName:
        firstName === undefined ? undefined : await this.deps.keyring.encryptNullable(userId, firstName),
      lastName:
        lastName === undefined ? undefined : await this.deps.keyring.encryptNullable(userId, lastName),
    });
    return this.requireUser(userId);
  }

  /** Sets a new password and ends every session of the account (reset or change). */
  async setPassword(userId: string, password: string, via: 'reset' | 'change'): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.command(userId, { type: 'RecordPasswordChange', via });
    await this.deps.db
      .insertInto('user_credentials')
      .values({ user_id: userId, password_hash: passwordHash })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: this.deps.clock.now() }),
      )
      .execute();
    await this.deps.sessions.destroyAllFor(userId);
  }

  /**
   * Suspends the account: its sessions end, and the answer waits until its links stop redirecting (the
   * links read model tells the redirect caches), then until what `endOnSuspension` added has run.
   */
  async suspend(userId: string, reason: string | null): Promise<void> {
    const { position } = await this.command(userId, { type: 'SuspendUser', reason });
    await this.deps.sessions.destroyAllFor(userId);
    if (position) await this.deps.readModels.waitFor(linksReadModel, position);
    for (const end of this.suspensionEnds) await end(userId);
  }

  /**
   * Has `end` run for every account suspended from now on, after its sessions ended: the composition root
   * adds what it builds after the accounts (premium purchases, with the payment provider).
   */
  endOnSuspension(end: (userId: string) => Promise<void>): void {
    this.suspensionEnds.push(end);
  }

  /**
   * Has `end` run for every account erased from now on, before its key is shredded: the runtime adds what
   * it builds after the accounts (the API keys).
   */
  endOnErasure(end: (userId: string) => Promise<void>): void {
    this.erasureEnds.push(end);
  }

  /** Unsuspends the account; the answer waits until its links redirect again. */
  async unsuspend(userId: string): Promise<void> {
    const { position } = await this.command(userId, { type: 'UnsuspendUser' });
    if (position) await this.deps.readModels.waitFor(linksReadModel, position);
  }

  /**
   * An operator's grant: Pro on a plan, or the grant taken back (`free`). Paid subscriptions are the
   * billing stream's (billing/billing-service.ts) and are not touched.
   */
  async setPlan(
    userId: string,
    plan: 'monthly' | 'yearly' | 'free',
    provider: 'operator' | 'local' | 'stripe' = 'operator',
  ) {
    const command: UserCommand =
      plan === 'free'
        ? { type: 'EndSubscription', reason: provider === 'operator' ? 'operator' : 'canceled' }
        : { type: 'StartSubscription', plan, provider, reference: null };
    await this.command(userId, command);
  }

  /**
   * Erases an account (docs/architecture.md, "Personal data"): records `UserErased`, gives the address back, deletes
   * what lets anyone sign in as it, and deletes its key only once the users read model has dropped the
   * personal data. An account that does not exist or is already erased is a NotFoundError.
   */
  async erase(userId: string): Promise<void> {
    const state = await this.users.load(userId);
    if (state.status === 'none') throw new NotFoundError('No such account');
    // Already erased: an erasure interrupted half-way; finish the clean-up it did not reach.
    if (state.status === 'active') await this.admins.leaveOnErasure(userId);
    const { position, projected } =
      state.status === 'active'
        ? await this.command(userId, { type: 'EraseUser' })
        : { position: null, projected: true };
    if (state.emailHash) await this.releaseEmail(state.emailHash, userId);
    await this.deps.sessions.destroyAllFor(userId);
    await this.deleteSignInSecrets(userId);
    for (const end of this.erasureEnds) await end(userId);
    if (!projected && position) await this.awaitErasureProjected(userId, position);
    await this.deps.keyring.shred(userId);
  }

  /**
   * Counts a new link against the user's plan, under the allowances in force now (the admin's settings):
   * 403 SUBSCRIPTION_REQUIRED or MONTHLY_LIMIT_REACHED when there is no room.
   */
  takeLinkSlot(userId: string, linkId: string) {
    const limits = linkLimitsOf(this.deps.settings);
    return this.command(userId, { type: 'TakeLinkSlot', linkId, now: this.deps.clock.now(), limits });
  }

  /**
   * Runs a command on the user's stream and waits (bounded) until the users read model shows it. The actor
   * is the command context's (the user themselves, an admin, the operator's CLI) unless `actorId` names one.
   */
  async command(
    userId: string,
    command: UserCommand,
    actorId?: string,
  ): Promise<{ position: LogPosition | null; projected: boolean }> {
    const { position, caughtUp } = await this.users.handle(userId, command, actorId ? { actorId } : {});
    return { position, projected: caughtUp };
  }

  async requireUser(userId: string): Promise<User> {
    const user = await this.user(userId);
    if (!user) throw new NotFoundError('No such account');
    return user;
  }

  private async recordRegistration(
    userId: string,
    emailHash: string,
    input: {
      email: string;
      firstName?: string | null;
      lastName?: string | null;
      profileImageUrl?: string | null;
      via: 'password' | 'oidc';
    },
  ): Promise<void> {
    const { keyring } = this.deps;
    await this.command(userId, {
      type: 'RegisterUser',
      userId,
      emailHash,
      email: await keyring.encrypt(userId, input.email),
      firstName: await keyring.encryptNullable(userId, input.firstName?.trim()),
      lastName: await keyring.encryptNullable(userId, input.lastName?.trim()),
      profileImageUrl: await keyring.encryptNullable(userId, input.profileImageUrl),
      via: input.via,
    });
  }

  /** Credentials, reset and verification tokens are operational rows, never events: erasure deletes them outright. */
  private async deleteSignInSecrets(userId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_credentials').where('user_id', '=', userId).execute();
      await trx.deleteFrom('password_reset_tokens').where('user_id', '=', userId).execute();
      await trx.deleteFrom('email_verification_tokens').where('user_id', '=', userId).execute();
    });
  }

  /**
   * The read-your-writes wait gave up; erasure waits longer, because shredding the key before the users
   * read model has passed `UserErased` must not happen. Still behind: fail loudly and keep the key.
   */
  private async awaitErasureProjected(userId: string, position: LogPosition): Promise<void> {
    if (await this.deps.readModels.waitFor(usersReadModel, position, ERASURE_PROJECTION_WAIT_MS)) return;
    throw new Error(
      `Account ${userId} is erased in the event log, but the users read model did not catch up within ` +
        `${ERASURE_PROJECTION_WAIT_MS / 1000} s, so its key was kept. Is a projection runner running?`,
    );
  }

  private async claimEmail(emailHash: string, userId: string): Promise<void> {
    await this.emailClaims.handle(emailHash, { type: 'ClaimEmail', userId });
  }

  /** Gives the address back: compensation for a registration that failed after its claim, and erasure. */
  async releaseEmail(emailHash: string, userId: string): Promise<void> {
    await this.emailClaims.handle(emailHash, { type: 'ReleaseEmail', userId });
  }
}

/**
 * The user JSON, as of `now`: Pro (`subscriptionStatus` "active") when an operator made
 * the account Pro or a subscription is Pro at `now` (`isProAt`: past due until its period ends, set to
 * cancel until then); links created this month count from the 1st, UTC; `held` is the user's live links
 * (the Free allowance counts them). `linkAllowance` is the rule `TakeLinkSlot` applies, with the same
 * `limits` (the admin's settings in force). `isAdmin` is the read model's flag (`AdminGranted` /
 * `AdminRevoked`).
 */
export function toUserJson(
  row: UserRow,
  { held, billing, limits }: { held: number; billing: UserBilling; limits: LinkLimits },
  now: Date,
): User {
  const { pro, plan, paid } = planAt(row, billing.subscriptions, now);
  const createdThisMonth = linksCreatedThisMonth(row, now);
  return {
    id: row.user_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    profileImageUrl: row.profile_image_url,
    isAdmin: row.is_admin,
    subscriptionStatus: pro ? 'active' : 'inactive',
    subscriptionPlan: plan,
    linksCreatedThisMonth: createdThisMonth,
    createdAt: row.created_at.toISOString(),
    emailVerified: row.email_verified,
    billing: {
      periodEnd: paid?.periodEnd.toISOString() ?? null,
      cancelAtPeriodEnd: paid?.cancelAtPeriodEnd ?? false,
      paymentFailed: paid?.paymentFailed ?? false,
      canManage: billing.customerId !== null,
    },
    linkAllowance: linkAllowance(pro, createdThisMonth, held, limits),
  };
}

/**
 * Pro at `now` and on which plan: an operator's grant (`npm run user:plan`) or a subscription Pro at that
 * instant (`currentSubscription`); the paid plan wins when both exist.
 */
export function planAt(
  row: Pick<UserRow, 'subscription_status' | 'subscription_plan'>,
  subscriptions: BilledSubscription[],
  now: Date,
) {
  const granted = row.subscription_status === 'active' ? grantedPlan(row) : undefined;
  const paid = currentSubscription(subscriptions, now);
  return { pro: granted !== undefined || paid !== undefined, plan: paid?.plan ?? granted ?? null, paid };
}

/** Links created in the UTC month of `now` (the row counts per month and starts again on the 1st). */
export const linksCreatedThisMonth = (
  row: Pick<UserRow, 'links_month' | 'links_created_this_month'>,
  now: Date,
): number => (row.links_month === utcMonthOf(now) ? row.links_created_this_month : 0);

/** The plan an operator's grant names (`npm run user:plan`); null when it names none the API knows. */
const grantedPlan = (row: Pick<UserRow, 'subscription_plan'>): 'monthly' | 'yearly' | null =>
  row.subscription_plan === 'monthly' || row.subscription_plan === 'yearly' ? row.subscription_plan : null;
