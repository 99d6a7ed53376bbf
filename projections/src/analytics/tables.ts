import type { Int8 } from '@sniplink/platform';
import type { ColumnType } from 'kysely';

/**
 * Click analytics' tables: counters written by `ClickAnalytics` (with its offsets in the click log, in
 * the same transaction) and rolled up by `./label-rollup`, read through `./queries`. Their migrations
 * stay in services/platform/src/db/migrations/ (`…T06-analytics` to `…T13-counters-half-full`), whose
 * order is history; the platform-wide counts came with `…27T02-admin-stats`, the publish parts counted
 * with `…28T05-click-publishes-counted`.
 */
export type ClickAnalyticsTables = {
  rm_click_buckets: RmClickBucketsTable;
  rm_click_labels: RmClickLabelsTable;
  rm_link_clicks: RmLinkClicksTable;
  rm_click_rollup: RmClickRollupTable;
  click_consumer_offsets: ClickConsumerOffsetsTable;
  click_publishes_counted: ClickPublishesCountedTable;
  rm_platform_click_quarters: RmPlatformClickQuartersTable;
  rm_platform_clicks: RmPlatformClicksTable;
};

/** Hourly click counts per dimension ('total' | 'device' | 'referrer' | 'country' | 'browser' | 'os'). */
export interface RmClickBucketsTable {
  link_id: string;
  hour: ColumnType<Date, Date | string, Date | string>;
  dimension: string;
  label: string;
  clicks: Int8;
}

/** All-time click counts per label, of the clicks in hours before `rm_click_rollup.labels_through`. */
export interface RmClickLabelsTable {
  link_id: string;
  dimension: string;
  label: string;
  clicks: Int8;
}

export interface RmLinkClicksTable {
  link_id: string;
  clicks: Int8;
  bot_clicks: Int8;
  last_click_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

/** One row: the hour up to which (excluded) the hourly buckets are rolled up into rm_click_labels. */
export interface RmClickRollupTable {
  singleton: ColumnType<boolean, boolean | undefined, never>;
  labels_through: ColumnType<Date, Date | string, Date | string>;
}

/** The next offset the analytics consumer counts, per partition of the click log. */
export interface ClickConsumerOffsetsTable {
  consumer: string;
  partition: number;
  next_offset: Int8;
}

/**
 * The publish parts the consumer has counted, per partition: a later copy of the publish (a re-sent one
 * that Kafka stored again) starts at or after `end_offset` and is skipped. Kept a day.
 */
export interface ClickPublishesCountedTable {
  partition: number;
  publish_id: string;
  end_offset: Int8;
  counted_at: ColumnType<Date, Date | string | undefined, never>;
}

/** Human clicks of the whole platform per quarter hour (UTC), for the admin Overview's "clicks today". */
export interface RmPlatformClickQuartersTable {
  quarter: ColumnType<Date, Date | string, Date | string>;
  clicks: Int8;
}

/** One row: every human click counted. */
export interface RmPlatformClicksTable {
  singleton: ColumnType<boolean, boolean | undefined, never>;
  clicks: Int8;
}

/**
 * The click counters a migration fills with a starting row (the platform's total, 0): a database holding
 * only that row has counted no click yet.
 */
export const COUNTERS_FILLED_BY_MIGRATION: readonly (keyof ClickAnalyticsTables & string)[] = [
  'rm_platform_clicks',
];
