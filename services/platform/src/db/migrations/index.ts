import type { Migration } from 'kysely';
import * as eventStore from './2026-11-22T01-event-store';
import * as clickStream from './2026-11-22T02-click-stream';
import * as projections from './2026-11-22T03-projections';
import * as clickLabelRollup from './2026-11-22T07-click-label-rollup';
import * as clickChunks from './2026-11-22T08-click-chunks';
import * as dropClickIds from './2026-11-22T09-drop-click-ids';
import * as clickChunksAsText from './2026-11-22T10-click-chunks-as-text';
import * as clickChunksUncompressed from './2026-11-22T11-click-chunks-uncompressed';
import * as clickChunksByTime from './2026-11-22T12-click-chunks-by-time';
import * as countersHalfFull from './2026-11-22T13-counters-half-full';
import * as clickPublishFunction from './2026-11-23T01-click-publish-function';
import * as eventSchemaVersion from './2026-11-25T20-event-schema-version';
import * as clickPublishesCounted from './2026-11-28T05-click-publishes-counted';
import * as projectionOperations from './2026-11-28T17-projection-operations';

/**
 * The platform's own migrations, by name: the event store, the click log and its counters, the projections'
 * checkpoints. Each feature lists its own next to its routes (its `Feature`'s `migrations`), and the
 * composition root hands `migrateToLatest` the union. Kysely runs them in name order, so a feature's
 * migration lands where its name's timestamp puts it. Never edit one that has shipped.
 */
export const platformMigrations: Record<string, Migration> = {
  '2026-11-22T01-event-store': eventStore,
  '2026-11-22T02-click-stream': clickStream,
  '2026-11-22T03-projections': projections,
  '2026-11-22T07-click-label-rollup': clickLabelRollup,
  '2026-11-22T08-click-chunks': clickChunks,
  '2026-11-22T09-drop-click-ids': dropClickIds,
  '2026-11-22T10-click-chunks-as-text': clickChunksAsText,
  '2026-11-22T11-click-chunks-uncompressed': clickChunksUncompressed,
  '2026-11-22T12-click-chunks-by-time': clickChunksByTime,
  '2026-11-22T13-counters-half-full': countersHalfFull,
  '2026-11-23T01-click-publish-function': clickPublishFunction,
  '2026-11-25T20-event-schema-version': eventSchemaVersion,
  '2026-11-28T05-click-publishes-counted': clickPublishesCounted,
  '2026-11-28T17-projection-operations': projectionOperations,
};
