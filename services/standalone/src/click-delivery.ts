import path from 'node:path';
import type { ReadinessCheck } from '@sniplink/api';
import type { ClickStream, Config, Logger } from '@sniplink/platform';
import {
  ClickBuffer,
  type ClickPublisher,
  ClickSpill,
  type ClickSpillStats,
  SpillFiles,
} from '@sniplink/redirect';

/** How long a stop waits for the click buffer's last publish (with the click thread's 10 s, within the 25-s grace). */
const CLICK_FLUSH_AT_STOP_MS = 10_000;

// A publish is a transaction of five statements and a NOTIFY, and wakes the consumer for a read: at
// 25,000 redirects/s batches of 2,000 clicks make 13 of them a second instead of 50 (PostgreSQL 25 ->
// 22 % of a core). A click waits at most 100 ms in memory, and SIGTERM publishes what waits.
const CLICKS_PER_PUBLISH = 2_000;
const PUBLISH_LINGER_MS = 100;

/** What a redirecting process pushes its clicks into, and what stands behind it. */
export interface ClickDelivery {
  /** Bounded by CLICK_BUFFER_CAPACITY. */
  buffer: ClickBuffer;
  /** `clickBuffer`, and `clickSpill` when there is one. */
  readiness: Record<string, ReadinessCheck>;
  /** What waits in DATA_DIR/click-spill/ (for /metrics); undefined without a spill. */
  spillStats: (() => ClickSpillStats) | undefined;
  /** Publishes (or spills) what the buffer holds, then stops replaying the spill. Before the click thread stops. */
  close(): Promise<void>;
}

/**
 * The click buffer, publishing to `publisher` (the click stream, or the click thread) through the spill
 * in DATA_DIR/click-spill/ (CLICK_SPILL_MAX_MB; 0: none): batches the stream cannot take are written
 * there and replayed once it can, also a previous run's. The spill goes to DATA_DIR whether or not the
 * database is the embedded one; its files name the database, and only that one gets them.
 */
export async function openClickDelivery(
  config: Config,
  publisher: ClickStream | ClickPublisher,
  connectionString: string,
  log: Logger,
): Promise<ClickDelivery> {
  const spill =
    config.clickSpillMaxBytes > 0 ? await openSpill(config, publisher, connectionString, log) : undefined;
  const buffer = new ClickBuffer({
    stream: spill ?? (publisher as ClickPublisher),
    log,
    capacity: config.clickBufferCapacity,
    maxBatch: CLICKS_PER_PUBLISH,
    lingerMs: PUBLISH_LINGER_MS,
    overflow: spill?.takeOverflow,
  });
  const readiness: Record<string, ReadinessCheck> = {
    clickBuffer: clickBufferCheck(buffer, config.clickBufferCapacity),
  };
  if (spill) readiness.clickSpill = async () => ({ ...spill.stats() });
  return {
    buffer,
    readiness,
    spillStats: spill && (() => spill.stats()),
    close: async () => {
      await buffer.close(CLICK_FLUSH_AT_STOP_MS);
      await spill?.close();
    },
  };
}

/** The spill, or none (logged) when DATA_DIR cannot hold it: a read-only image must still serve. */
async function openSpill(
  config: Config,
  publisher: ClickStream | ClickPublisher,
  connectionString: string,
  log: Logger,
): Promise<ClickSpill | undefined> {
  const files = new SpillFiles({
    dir: path.join(config.dataDir, 'click-spill'),
    maxBytes: config.clickSpillMaxBytes,
    target: databaseAddress(connectionString),
    log,
  });
  const spill = new ClickSpill({ stream: publisher as ClickPublisher, files, log });
  try {
    await spill.open();
  } catch (error) {
    log.error(
      { err: error, dataDir: config.dataDir },
      'no click spill: DATA_DIR/click-spill cannot be used; clicks the stream cannot take wait in the click buffer only',
    );
    return undefined;
  }
  return spill;
}

/** The database a spill belongs to, without credentials: host (or socket directory), port and name. */
export function databaseAddress(connectionString: string): string {
  const url = new URL(connectionString);
  const host = url.searchParams.get('host') ?? url.hostname;
  const port = url.searchParams.get('port') ?? (url.port || '5432');
  return `${host}:${port}${url.pathname}`;
}

/** Not ready while the buffer is full: clicks would be dropped. Shows what waits and what was lost. */
function clickBufferCheck(clickBuffer: ClickBuffer, capacity: number): ReadinessCheck {
  return async () => {
    const { buffered, published, dropped, failedPublishes } = clickBuffer.stats();
    return { ok: buffered < capacity, buffered, published, dropped, failedPublishes };
  };
}
