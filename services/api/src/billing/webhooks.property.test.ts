import { eventRegistry, type LinkLimits, type ProviderSubscriptionStatus } from '@sniplink/contracts';
import {
  currentSubscription,
  isProAt,
  isUserProAt,
  type UserState,
  userDecider,
  userStreamId,
} from '@sniplink/domain';
import {
  createLogger,
  type Database,
  type EventStore,
  fixedClock,
  handleCommand,
  InMemoryEventStore,
  KeyedMutex,
  Keyring,
  type LogPosition,
  loadState,
  type RecordedEvent,
} from '@sniplink/platform';
import {
  billingOfUser,
  billingProjection,
  catchUp,
  loadCheckpoint,
  type Projection,
  paidPlansProjection,
  proAt,
  userById,
  usersProjection,
  withReadModels,
} from '@sniplink/projections';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { type Kysely, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUserJson } from '../accounts/accounts';
import { BillingService } from './billing-service';
import type { SubscriptionSnapshot } from './provider';
import { type StripeShapedEvent, subscriptionEvent, TestPayments } from './testing';
import { receiveWebhook } from './webhooks';

/**
 * Random sequences of the provider's webhooks (for a few users and subscriptions: created, activated,
 * renewed, payment failed and recovered, cancellation scheduled and withdrawn, canceled; delivered late,
 * out of order, twice, and forged for the wrong user), with operators' grants among them, applied through
 * `receiveWebhook` on an in-memory event store, with the read models projected into PostgreSQL at random
 * points. After each sequence: the read models equal a rebuild of them from the sequence's events; what
 * the deciders allow (Pro, the link allowance, buying a premium slug) is what the read models show at
 * several instants; and a billing stream holds only subscriptions and customers claimed by its user.
 * `WEBHOOK_SEQUENCES` (default 1,000) and `WEBHOOK_SEQUENCES_SEED` replay a run; a failure prints both.
 */
const SEQUENCES = Number(process.env.WEBHOOK_SEQUENCES ?? 1_000);
const SEED = Number(process.env.WEBHOOK_SEQUENCES_SEED ?? Math.floor(Math.random() * 2 ** 31));
const NOW = '2027-06-15T12:00:00.000Z';
const DAY_MS = 24 * 60 * 60_000;
const LIMITS: LinkLimits = { free: 5, proMonthly: 500 };
/** When the deciders and the read models are compared: now, within the period, past it, past a renewal. */
const INSTANTS = [0, 20, 40, 75].map((days) => new Date(Date.parse(NOW) + days * DAY_MS));
const USER_TABLES = [
  'rm_users',
  'rm_billing_customers',
  'rm_billing_subscriptions',
  'rm_paid_plans',
  'rm_paid_periods',
];

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const hex = (digits: number) => Array.from({ length: digits }, () => int(16).toString(16)).join('');
  /** A version 4 UUID drawn from the seed. */
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  return {
    chance: (p: number) => next() < p,
    int,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
    uuid,
  };
}
type Random = ReturnType<typeof prng>;

let database: TestDatabase;
let db: Kysely<Database>;
let store: EventStore;
let payments: TestPayments;
let billing: BillingService;
let projections: Projection[];
const checkpoints = new Map<string, LogPosition>();
const clock = fixedClock(NOW);
const log = createLogger('silent');

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  store = new InMemoryEventStore(eventRegistry);
  payments = new TestPayments();
  billing = new BillingService({
    eventStore: store,
    db,
    payments,
    // The user stream's commands as the account service runs them; the test projects the read models itself.
    accounts: {
      command: async (userId, command) => {
        const result = await handleCommand(store, userStreamId(userId), userDecider, command, { clock });
        return { position: result.position, projected: true };
      },
      user: async () => null,
    },
    readModels: { waitFor: async () => true },
    publicUrl: 'https://snip.example.com',
    log,
    clock,
  });
  projections = [usersProjection(new Keyring(db)), billingProjection, paidPlansProjection];
  for (const projection of projections)
    checkpoints.set(projection.name, await loadCheckpoint(db, projection));
});
afterAll(() => database.drop());

const projecting = new KeyedMutex();

/** The live read models catch up with the log, in batches of a random size (one catch-up at a time). */
function project(random: Random): Promise<void> {
  return projecting.run('read models', () => catchUpAll(random));
}

async function catchUpAll(random: Random): Promise<void> {
  for (const projection of projections) {
    const from = checkpoints.get(projection.name) as LogPosition;
    const { checkpoint } = await catchUp({ db, eventStore: store }, projection, from, 5 + random.int(60));
    checkpoints.set(projection.name, checkpoint);
  }
}

interface Held {
  snapshot: SubscriptionSnapshot;
}

/** One sequence's world: its users (fresh ids), the provider's subscriptions, and its webhooks. */
class Sequence {
  readonly users: string[] = [];
  readonly subscriptions: Held[] = [];
  readonly pending: StripeShapedEvent[] = [];
  readonly delivered: StripeShapedEvent[] = [];
  private events = 0;

  constructor(
    private readonly random: Random,
    private readonly tag: string,
  ) {}

  async register(count: number): Promise<void> {
    const keyring = new Keyring(db);
    for (let i = 0; i < count; i++) {
      const userId = this.random.uuid();
      const email = await keyring.encrypt(userId, `${userId}@example.com`);
      const command = { type: 'RegisterUser', userId, email, emailHash: `hash-${userId}` } as const;
      await handleCommand(
        store,
        userStreamId(userId),
        userDecider,
        { ...command, firstName: null, lastName: null, profileImageUrl: null, via: 'password' },
        { clock },
      );
      this.users.push(userId);
    }
  }

  /** One step: the provider changes a subscription (and sends its event), an operator acts, or deliveries. */
  async step(): Promise<void> {
    const { random } = this;
    const roll = random.int(10);
    if (roll < 2 || this.subscriptions.length === 0) return this.create();
    if (roll < 6) return this.change(random.pick(this.subscriptions));
    if (roll === 6) return this.operator();
    if (roll === 7 && random.chance(0.3)) return project(random);
    return this.deliverSome();
  }

  private create(): void {
    if (this.subscriptions.length >= 3) return;
    const { random } = this;
    const owner = random.pick(this.users);
    // Now and then a subscription on another user's customer: a binding that must be refused.
    const customerOf = random.chance(0.1) ? random.pick(this.users) : owner;
    const snapshot: SubscriptionSnapshot = {
      id: `sub_${this.tag}_${this.subscriptions.length}`,
      customerId: `cus_${customerOf}`,
      userId: random.chance(0.8) ? owner : null,
      plan: random.pick(['monthly', 'yearly'] as const),
      status: random.pick(['incomplete', 'active', 'active', 'trialing'] as const),
      currentPeriodEnd: new Date(Date.parse(NOW) + (10 + random.int(30)) * DAY_MS),
      cancelAtPeriodEnd: false,
      amount: 200,
      currency: 'usd',
    };
    this.subscriptions.push({ snapshot });
    payments.hold(snapshot);
    this.emit('customer.subscription.created', snapshot, snapshot.userId);
    this.emit('checkout.session.completed', snapshot, owner);
  }

  private change(held: Held): void {
    const was = held.snapshot;
    if (was.status === 'canceled') return;
    const { random } = this;
    const change = random.pick(['renew', 'fail', 'recover', 'schedule', 'withdraw', 'cancel'] as const);
    const status = (value: ProviderSubscriptionStatus) => ({ status: value });
    const changes: Record<typeof change, [string, Partial<SubscriptionSnapshot>]> = {
      renew: [
        'invoice.paid',
        { ...status('active'), currentPeriodEnd: new Date(was.currentPeriodEnd.getTime() + 30 * DAY_MS) },
      ],
      fail: ['invoice.payment_failed', status(random.chance(0.7) ? 'past_due' : 'unpaid')],
      recover: ['invoice.paid', status('active')],
      schedule: ['customer.subscription.updated', { cancelAtPeriodEnd: true }],
      withdraw: ['customer.subscription.updated', { cancelAtPeriodEnd: false }],
      cancel: ['customer.subscription.deleted', status('canceled')],
    };
    const [type, update] = changes[change];
    held.snapshot = { ...was, ...update };
    payments.hold(held.snapshot);
    this.emit(type, held.snapshot, held.snapshot.userId);
  }

  private async operator(): Promise<void> {
    const { random } = this;
    const command = random.chance(0.5)
      ? ({ type: 'StartSubscription', plan: 'monthly', provider: 'operator', reference: null } as const)
      : ({ type: 'EndSubscription', reason: 'operator' } as const);
    await handleCommand(store, userStreamId(random.pick(this.users)), userDecider, command, { clock });
  }

  private emit(type: string, snapshot: SubscriptionSnapshot, userId: string | null): void {
    this.events += 1;
    const { id, customerId } = snapshot;
    this.pending.push(subscriptionEvent(`evt_${this.tag}_${this.events}`, type, { id, customerId, userId }));
  }

  /** A pending event (any of them: out of order), a copy of one delivered, or a forged one for another user. */
  async deliverSome(): Promise<void> {
    const { random } = this;
    const roll = random.int(10);
    if (roll < 6 && this.pending.length > 0) {
      const [event] = this.pending.splice(random.int(this.pending.length), 1);
      if (event) await this.deliver(event);
    } else if (roll < 8 && this.delivered.length > 0) {
      await this.deliver(random.pick(this.delivered));
    } else if (this.subscriptions.length > 0) {
      const { snapshot } = random.pick(this.subscriptions);
      this.events += 1;
      const forged = subscriptionEvent(`evt_${this.tag}_${this.events}`, 'checkout.session.completed', {
        ...snapshot,
        userId: random.pick(this.users),
      });
      await this.deliver(forged);
    }
  }

  async deliverAll(): Promise<void> {
    while (this.pending.length > 0) await this.deliverSome();
  }

  private async deliver(event: StripeShapedEvent): Promise<void> {
    const { body, signature } = payments.signed(event);
    await receiveWebhook({ billing, payments, log }, Buffer.from(body), signature);
    this.delivered.push(event);
  }
}

/** The read models' rows of these users, in a stable order (one statement). */
async function rowsOf(handle: Kysely<Database>, users: readonly string[]) {
  const tables = USER_TABLES.map(
    (table) => sql`(SELECT coalesce(json_agg(t ORDER BY t::text), '[]') FROM ${sql.table(table)} AS t
      WHERE t.user_id IN (${sql.join(users)})) AS ${sql.ref(table)}`,
  );
  const { rows } = await sql<Record<string, unknown[]>>`SELECT ${sql.join(tables)}`.execute(handle);
  return rows[0];
}

const ROLLBACK = new Error('rollback');

/** The same users' rows rebuilt from the sequence's events alone (its users are new), then rolled back. */
async function rebuiltRowsOf(events: readonly RecordedEvent[], users: readonly string[]) {
  let rebuilt: Record<string, unknown[]> | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      const deletes = USER_TABLES.map(
        (table, i) =>
          sql`${sql.raw(`d${i}`)} AS (DELETE FROM ${sql.table(table)} WHERE user_id IN (${sql.join(users)}))`,
      );
      await sql`WITH ${sql.join(deletes)} SELECT 1`.execute(trx);
      for (const projection of projections) {
        const handled = events.filter((event) => projection.handles.includes(event.type));
        if (handled.length > 0) await projection.apply(withReadModels(trx), handled);
      }
      rebuilt = await rowsOf(trx, users);
      throw ROLLBACK;
    })
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error;
    });
  return rebuilt;
}

/** What the user decider allows at `now`. */
function decided(state: UserState, now: Date) {
  let mayTakeLink = true;
  try {
    userDecider.decide({ type: 'TakeLinkSlot', linkId: uuidv7(), now, limits: LIMITS }, state);
  } catch {
    mayTakeLink = false;
  }
  const paid = currentSubscription(state.paidPlan.subscriptions, now);
  return {
    pro: isUserProAt(state, now),
    plan: paid?.plan ?? state.subscription?.plan ?? null,
    mayTakeLink,
    // Who may buy a premium slug: Pro at that instant (the purchase service asks `isUserProAt`).
    mayBuyPremium: isUserProAt(state, now),
    paidPro: state.paidPlan.subscriptions.some((terms) => isProAt(terms, now)),
  };
}

/**
 * What the read models show of each user at each instant: `/api/auth/user` (the user JSON the admin list
 * and export share), and whether the admin figures' SQL rule counts the user as paying.
 */
async function shown(users: readonly string[]) {
  const paying = INSTANTS.map((now) => sql`bool_or(${proAt(now)})`);
  const [{ rows }, read] = await Promise.all([
    sql<{ user_id: string; pro: boolean[] }>`
      SELECT user_id, array[${sql.join(paying)}] AS pro FROM rm_paid_periods
      WHERE user_id IN (${sql.join(users)}) GROUP BY user_id`.execute(db),
    Promise.all(users.map((userId) => Promise.all([userById(db, userId), billingOfUser(db, userId)]))),
  ]);
  return users.map((userId, u) => {
    const [row, billing] = read[u] ?? [];
    if (!row || !billing) throw new Error(`No read model row for ${userId}`);
    const paid = rows.find((found) => found.user_id === userId)?.pro ?? [];
    return INSTANTS.map((now, i) => {
      const user = toUserJson(row, { held: 0, billing, limits: LIMITS }, now);
      const pro = user.subscriptionStatus === 'active';
      return {
        pro,
        plan: user.subscriptionPlan,
        mayTakeLink: user.linkAllowance.remaining > 0,
        mayBuyPremium: pro,
        paidPro: paid[i] ?? false,
      };
    });
  });
}

/** Every subscription and customer on a user's billing stream is claimed by that user. */
async function expectClaimedByTheirUsers(users: readonly string[]) {
  for (const userId of users) {
    for (const event of await store.readStream(`billing-${userId}`)) {
      const data = event.data as { customerId: string; subscriptionId?: string };
      const claims = [`billingcustomer-${data.customerId}`];
      if (data.subscriptionId) claims.push(`subscription-${data.subscriptionId}`);
      for (const claim of claims) {
        const [first] = await store.readStream(claim);
        expect((first?.data as { userId?: string } | undefined)?.userId, claim).toBe(userId);
      }
    }
  }
}

async function runSequence(seed: number, index: number): Promise<void> {
  const random = prng(seed);
  const start = await store.headPosition();
  const sequence = new Sequence(random, `${index}`);
  await sequence.register(2 + random.int(2));
  const steps = 4 + random.int(10);
  for (let i = 0; i < steps; i++) await sequence.step();
  await sequence.deliverAll();
  await project(random);

  // Its users are new: their streams' events since the sequence began are all they have.
  const streams = new Set(sequence.users.flatMap((userId) => [`user-${userId}`, `billing-${userId}`]));
  const { events: since } = await store.readAll({ after: start, maxCount: 1_000_000 });
  const events = since.filter((event) => streams.has(event.streamId));
  expect(await rowsOf(db, sequence.users)).toEqual(await rebuiltRowsOf(events, sequence.users));
  const read = await shown(sequence.users);
  for (const [u, userId] of sequence.users.entries()) {
    const state = await loadState(store, userStreamId(userId), userDecider);
    for (const [i, now] of INSTANTS.entries()) {
      expect(read[u]?.[i], `${userId} at ${now.toISOString()}`).toEqual(decided(state, now));
    }
  }
  await expectClaimedByTheirUsers(sequence.users);
}

/** Sequences run a few at a time (their users differ), to keep the suite quick. */
const AT_ONCE = 8;

async function replayable(index: number): Promise<void> {
  const seed = (SEED + index) >>> 0;
  try {
    await runSequence(seed, index);
  } catch (error) {
    console.error(
      `Webhook sequence ${index} failed: replay it with WEBHOOK_SEQUENCES_SEED=${seed} WEBHOOK_SEQUENCES=1 (run seed ${SEED})`,
    );
    throw error;
  }
}

describe('webhook sequences', () => {
  it(`keep the read models equal to a rebuild and to what the deciders allow (${SEQUENCES} sequences)`, async () => {
    for (let first = 0; first < SEQUENCES; first += AT_ONCE) {
      const batch = Array.from({ length: Math.min(AT_ONCE, SEQUENCES - first) }, (_, i) => first + i);
      await Promise.all(batch.map(replayable));
    }
  }, 300_000);
});
