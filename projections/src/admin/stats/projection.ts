import { linkEvents, linkStream, userEvents, userStream } from '@sniplink/contracts';
import { comparePositions, type LogPosition, type RecordedEvent, START } from '@sniplink/platform';
import { sql, type Transaction } from 'kysely';
import { arrayLiteral, QUARTER_MS } from '../../analytics/counters';
import type { Projection } from '../../projection';
import type { ReadModelDatabase } from '../../read-models';

const countedEvents = userEvents.with(linkEvents);

/** A demo link's owner before an account claims it: `visitor-{id}` (contracts/src/links/events.ts). */
const VISITOR_OWNER = 'visitor-';

/** The events that move a figure of the Overview; the rest of the log passes this projection by. */
const COUNTED = [
  'UserRegistered',
  'UserErased',
  'SubscriptionStarted',
  'SubscriptionEnded',
  'LinkCreated',
  'LinkOwnerChanged',
  'LinkDeleted',
] as const satisfies readonly (typeof countedEvents.types)[number][];

/**
 * The admin Overview's accounts and links ("Detailed statistics"): how many
 * accounts stand (registered, not erased) and links (created, not deleted), sign-ups and links created
 * per quarter hour (UTC), and the small sets of accounts Pro by an operator's grant and of erased ones.
 *
 * Counters are not idempotent by themselves, so the projection keeps the position of the last event it
 * applied beside them (`rm_admin_totals`), in the batch's transaction: an event at or before it is a
 * redelivery and changes nothing. The runner delivers the log in order, so that is every redelivery.
 */
export const adminStatsProjection: Projection = {
  name: 'admin-stats',
  // 2: the demo links no account holds (`rm_admin_demo_links`).
  version: 2,
  handles: COUNTED,
  tables: [
    'rm_admin_totals',
    'rm_admin_activity',
    'rm_admin_granted_users',
    'rm_admin_erased_users',
    'rm_admin_demo_links',
  ],
  async apply(trx, events) {
    const applied = await appliedThrough(trx);
    const change = new StatsChange(applied);
    for (const event of events) change.add(event);
    if (change.last === applied) return;
    await writeChange(trx, change);
  },
};

/** What a batch changes, its redeliveries left out. */
class StatsChange {
  users = 0;
  links = 0;
  /** Quarter (ms) -> sign-ups and links created in it. */
  readonly quarters = new Map<number, { signups: number; linksCreated: number }>();
  /** User id -> whether they hold an operator's grant after the batch (the last event of theirs wins). */
  readonly granted = new Map<string, boolean>();
  readonly erased = new Set<string>();
  /** Link id -> whether it is a demo link no account holds after the batch (the last event wins). */
  readonly demo = new Map<string, boolean>();

  constructor(public last: LogPosition) {}

  add(recorded: RecordedEvent): void {
    if (comparePositions(recorded.globalPosition, this.last) <= 0) return;
    this.last = recorded.globalPosition;
    const event = countedEvents.narrow(recorded);
    // The user's id, for the events of a user's stream (link events are on the link's).
    const userId = () => userStream.idOf(recorded);
    switch (event.type) {
      case 'UserRegistered':
        this.users += 1;
        this.quarterOf(recorded.occurredAt).signups += 1;
        return;
      case 'UserErased':
        this.users -= 1;
        this.granted.set(userId(), false);
        this.erased.add(userId());
        return;
      case 'SubscriptionStarted':
        this.granted.set(userId(), true);
        return;
      case 'SubscriptionEnded':
        this.granted.set(userId(), false);
        return;
      case 'LinkCreated':
        this.links += 1;
        // A visitor's demo link is not one an account created (as Total Links leaves it out).
        if (event.data.ownerId.startsWith(VISITOR_OWNER)) this.demo.set(event.data.linkId, true);
        else this.quarterOf(recorded.occurredAt).linksCreated += 1;
        return;
      case 'LinkOwnerChanged':
        // A visitor's demo link moved into an account: one of the account's links from now on.
        this.demo.set(linkStream.idOf(recorded), event.data.ownerId.startsWith(VISITOR_OWNER));
        return;
      case 'LinkDeleted':
        this.links -= 1;
        this.demo.set(linkStream.idOf(recorded), false);
        return;
      default:
        // Declared on these streams but not counted (`handles` keeps them away).
        return;
    }
  }

  private quarterOf(at: Date) {
    const ms = at.getTime();
    const quarterMs = ms - (((ms % QUARTER_MS) + QUARTER_MS) % QUARTER_MS);
    let quarter = this.quarters.get(quarterMs);
    if (!quarter) {
      quarter = { signups: 0, linksCreated: 0 };
      this.quarters.set(quarterMs, quarter);
    }
    return quarter;
  }
}

async function appliedThrough(trx: Transaction<ReadModelDatabase>): Promise<LogPosition> {
  const row = await trx
    .selectFrom('rm_admin_totals')
    .select(['applied_commit', 'applied_prepare'])
    .executeTakeFirst();
  return row ? { commit: BigInt(row.applied_commit), prepare: BigInt(row.applied_prepare) } : START;
}

async function writeChange(trx: Transaction<ReadModelDatabase>, change: StatsChange): Promise<void> {
  const { commit, prepare } = change.last;
  await sql`
    INSERT INTO rm_admin_totals (users, links, applied_commit, applied_prepare)
    VALUES (${change.users}, ${change.links}, ${commit.toString()}, ${prepare.toString()})
    ON CONFLICT (singleton) DO UPDATE SET
      users = rm_admin_totals.users + excluded.users,
      links = rm_admin_totals.links + excluded.links,
      applied_commit = excluded.applied_commit,
      applied_prepare = excluded.applied_prepare`.execute(trx);
  if (change.quarters.size > 0) {
    const quarters = [...change.quarters];
    await sql`
      INSERT INTO rm_admin_activity (quarter, signups, links_created)
      SELECT * FROM unnest(
        ${arrayLiteral(quarters.map(([ms]) => new Date(ms).toISOString()))}::timestamptz[],
        ${arrayLiteral(quarters.map(([, q]) => q.signups))}::bigint[],
        ${arrayLiteral(quarters.map(([, q]) => q.linksCreated))}::bigint[])
      ON CONFLICT (quarter) DO UPDATE SET
        signups = rm_admin_activity.signups + excluded.signups,
        links_created = rm_admin_activity.links_created + excluded.links_created`.execute(trx);
  }
  const granted = [...change.granted].filter(([, holds]) => holds).map(([userId]) => userId);
  const notGranted = [...change.granted].filter(([, holds]) => !holds).map(([userId]) => userId);
  if (notGranted.length > 0)
    await trx.deleteFrom('rm_admin_granted_users').where('user_id', 'in', notGranted).execute();
  if (granted.length > 0)
    await trx
      .insertInto('rm_admin_granted_users')
      .values(granted.map((user_id) => ({ user_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  const demo = [...change.demo].filter(([, stands]) => stands).map(([linkId]) => linkId);
  const notDemo = [...change.demo].filter(([, stands]) => !stands).map(([linkId]) => linkId);
  if (notDemo.length > 0)
    await trx.deleteFrom('rm_admin_demo_links').where('link_id', 'in', notDemo).execute();
  if (demo.length > 0)
    await trx
      .insertInto('rm_admin_demo_links')
      .values(demo.map((link_id) => ({ link_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  if (change.erased.size > 0)
    await trx
      .insertInto('rm_admin_erased_users')
      .values([...change.erased].map((user_id) => ({ user_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
}
