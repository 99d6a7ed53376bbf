/**
 * The runtime's series for `/metrics` (docs/operations.md, "Metrics"): each read at scrape time from
 * where the figure already lives (the click buffer's and the spill's counters, the embedded server's
 * supervisor, the projections' checkpoints and the click consumer's offsets in the database), so nothing
 * on the request path counts for them but one integer per redirect (`redirectsServed`).
 */
import { counterOf, databaseGauges, gaugeOf, type Registry } from '@sniplink/api';
import type { ClickStream, Database, EventStore } from '@sniplink/platform';
import type { EmbeddedServerStatus } from '@sniplink/platform/embedded';
import { clicksBehind, clicksCounted, type Projection, projectionLag } from '@sniplink/projections';
import { type ClickBuffer, type ClickSpillStats, redirectsServed } from '@sniplink/redirect';
import type { Kysely } from 'kysely';

/** What every redirecting process has: its redirects, its click buffer and spill, its database server. */
export interface RedirectMetricSources {
  clickBuffer: ClickBuffer;
  spill: (() => ClickSpillStats) | undefined;
  /** The embedded server's state; undefined on DATABASE_URL. */
  embedded: (() => EmbeddedServerStatus) | undefined;
}

export function registerRedirectMetrics(registry: Registry, sources: RedirectMetricSources): void {
  counterOf(
    registry,
    'sniplink_redirects_total',
    'Redirects (302) this process answered, on every path',
    () => redirectsServed(),
  );
  const { clickBuffer, spill, embedded } = sources;
  gaugeOf(
    registry,
    'sniplink_clicks_buffered',
    'Clicks this process holds in memory, not yet in the click stream',
    () => clickBuffer.stats().buffered,
  );
  counterOf(
    registry,
    'sniplink_clicks_published_total',
    "Clicks this process's buffer published to the click stream",
    () => clickBuffer.stats().published,
  );
  counterOf(
    registry,
    'sniplink_clicks_dropped_total',
    'Clicks this process lost: the buffer was full and the spill could not take them',
    () => clickBuffer.stats().dropped + (spill?.().dropped ?? 0),
  );
  if (spill) {
    gaugeOf(
      registry,
      'sniplink_click_spill_bytes',
      'Bytes of clicks waiting in DATA_DIR/click-spill/ for the click stream',
      () => spill().bytes,
    );
    gaugeOf(
      registry,
      'sniplink_click_spill_files',
      'Files waiting in DATA_DIR/click-spill/',
      () => spill().files,
    );
  }
  if (embedded) {
    gaugeOf(
      registry,
      'sniplink_embedded_postgres_up',
      'The embedded PostgreSQL server runs (1), or is being restarted or stopped (0); 1 when attached to the server of another process',
      () => (['running', 'attached'].includes(embedded().state) ? 1 : 0),
    );
    counterOf(
      registry,
      'sniplink_embedded_postgres_restarts_total',
      'Times the embedded PostgreSQL server died and this process started it again',
      () => embedded().restarts,
    );
  }
}

/** What the app reads from the database: how far the click consumer and each projection trail. */
export interface AnalyticsMetricSources {
  db: Kysely<Database>;
  eventStore: EventStore;
  clickStream: ClickStream;
  projections: readonly Projection[];
}

export function registerAnalyticsMetrics(registry: Registry, sources: AnalyticsMetricSources): void {
  const { db, eventStore, clickStream, projections } = sources;
  databaseGauges(
    registry,
    [
      {
        name: 'sniplink_clicks_counted',
        help: 'Clicks the analytics consumer has counted since the click log began (for the whole deployment, from its offsets)',
      },
      {
        name: 'sniplink_click_stream_lag_clicks',
        help: 'Clicks in the click stream the analytics consumer has not counted yet',
      },
    ],
    [],
    async () => {
      const [counted, behind] = await Promise.all([
        clicksCounted(db),
        clicksBehind(db, await clickStream.endOffsets()),
      ]);
      return [{ labels: {}, values: [counted, behind] }];
    },
  );
  databaseGauges(
    registry,
    [
      {
        name: 'sniplink_projection_lag_events',
        help: `Events a projection has not applied yet, counted up to ${LAG_CAP}`,
      },
      {
        name: 'sniplink_projection_lag_seconds',
        help: 'Age of the oldest event a projection has not applied yet (0 when it is current)',
      },
    ],
    ['projection'],
    async () => {
      const now = Date.now();
      const lags = await Promise.all(
        projections.map((projection) => projectionLag({ db, eventStore }, projection, LAG_CAP)),
      );
      return lags.map((lag) => ({
        labels: { projection: lag.name },
        values: [
          lag.behind,
          lag.oldestPendingAt ? Math.max(0, (now - lag.oldestPendingAt.getTime()) / 1_000) : 0,
        ],
      }));
    },
  );
}

/** As /readyz counts: past it a projection is far behind, and the exact number matters less. */
const LAG_CAP = 1_000;
