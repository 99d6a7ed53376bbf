/**
 * `npm run bench:rebuild [-- --events 1000000] [--target server]`: a blue/green rebuild of the links read
 * model and of the admin's figures (admin-stats) from a log of `--events` events (a quarter of them links
 * created, the rest their edits), written straight into the event store's table. Prints each rebuild's
 * pace in events per second and the swap's pause (how long readers of the read model waited).
 */

import { eventRegistry } from '@sniplink/contracts';
import { createLogger, PgAdvisoryLocks, PgNotifications, PostgresEventStore } from '@sniplink/platform';
import { adminStatsProjection, linksProjection, rebuildBlueGreen } from '@sniplink/projections';
import { benchDatabase, benchServer, fmt, option } from './support';

const EVENTS = Number(option('--events') ?? 1_000_000);
const LINKS = Math.ceil(EVENTS / 4);
/** Links per transaction of the seed: each is its own commit in the log, as appends are. */
const SEED_CHUNK = 25_000;

async function main() {
  const server = await benchServer();
  const database = await benchDatabase(server.adminUrl, 8);
  const notifications = new PgNotifications({ connectionString: database.connectionString });
  try {
    const started = performance.now();
    for (let from = 0; from < LINKS; from += SEED_CHUNK)
      await seed(database, from, Math.min(LINKS, from + SEED_CHUNK));
    const seeded = await database.pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events');
    console.log(
      `seeded ${fmt(Number(seeded.rows[0]?.n))} events (${fmt(LINKS)} links) in ${fmt((performance.now() - started) / 1000, 1)} s on ${server.label}`,
    );
    const eventStore = new PostgresEventStore({
      pool: database.pool,
      notifications,
      registry: eventRegistry,
    });
    const deps = {
      db: database.db,
      eventStore,
      locks: new PgAdvisoryLocks({ pool: database.pool }),
      log: createLogger('warn'),
    };
    for (const projection of [linksProjection(), adminStatsProjection]) {
      const outcome = await rebuildBlueGreen(deps, projection);
      const perSecond = outcome.events / (outcome.ms / 1000);
      console.log(
        `${projection.name.padEnd(12)} ${fmt(outcome.events).padStart(10)} events in ${fmt(outcome.ms / 1000, 1).padStart(6)} s  ${fmt(perSecond).padStart(8)} events/s  swap pause ${fmt(outcome.swapMs, 1)} ms`,
      );
    }
    await eventStore.close();
  } finally {
    await notifications.close();
    await database.drop();
    await server.stop();
  }
}

/** Links `from`…`to` - 1 created, retitled, tagged and retargeted: four events each, in one transaction. */
async function seed(database: Awaited<ReturnType<typeof benchDatabase>>, from: number, to: number) {
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `WITH links AS (
        SELECT i, ('01900000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid AS link_id
        FROM generate_series($1::int, $2::int) AS i
      ), events AS (
        SELECT i, link_id, 0 AS revision, 'LinkCreated' AS type,
          jsonb_build_object('linkId', link_id, 'ownerId', 'owner-' || (i % 1000), 'code', 'b' || i,
            'originalUrl', 'https://example.com/products/' || i, 'title', NULL, 'origin', 'dashboard') AS data
        FROM links
        UNION ALL SELECT i, link_id, 1, 'LinkRetitled', jsonb_build_object('title', 'Product ' || i) FROM links
        UNION ALL SELECT i, link_id, 2, 'LinkTagsChanged', jsonb_build_object('tags', jsonb_build_array('spring', 'shop')) FROM links
        UNION ALL SELECT i, link_id, 3, 'LinkRetargeted', jsonb_build_object('originalUrl', 'https://example.com/p/' || i) FROM links
      )
      INSERT INTO es_events (event_id, stream_id, revision, type, data, actor_id, occurred_at)
      SELECT gen_random_uuid(), 'link-' || link_id, revision, type, data, 'owner-' || (i % 1000), now()
      FROM events ORDER BY i, revision`,
      [from, to - 1],
    );
    await client.query(
      `INSERT INTO es_streams (stream_id, revision)
      SELECT 'link-' || ('01900000-0000-7000-8000-' || lpad(to_hex(i), 12, '0')), 3
      FROM generate_series($1::int, $2::int) AS i`,
      [from, to - 1],
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
