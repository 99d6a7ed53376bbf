import { describe, expect, it } from 'vitest';
import { features, migrations } from './features';

/**
 * The migrations every existing database has run, in the order it ran them. Kysely runs them in name
 * order and refuses a database that ran one this list would put later: a name that moves, goes or comes
 * in between breaks the migration of databases already in use.
 */
const SHIPPED_MIGRATIONS = [
  '2026-11-22T01-event-store',
  '2026-11-22T02-click-stream',
  '2026-11-22T03-projections',
  '2026-11-22T04-accounts',
  '2026-11-22T05-links',
  '2026-11-22T06-analytics',
  '2026-11-22T07-click-label-rollup',
  '2026-11-22T08-click-chunks',
  '2026-11-22T09-drop-click-ids',
  '2026-11-22T10-click-chunks-as-text',
  '2026-11-22T11-click-chunks-uncompressed',
  '2026-11-22T12-click-chunks-by-time',
  '2026-11-22T13-counters-half-full',
  '2026-11-23T01-click-publish-function',
  '2026-11-25T10-email-verification',
  '2026-11-25T20-event-schema-version',
  '2026-11-26T01-billing',
  '2026-11-26T21-local-payments',
  '2026-11-27T01-admin-users',
  '2026-11-27T02-admin-stats',
  '2026-11-27T03-admin-config',
  '2026-11-27T04-announcements',
  '2026-11-27T05-admin-audit',
  '2026-11-27T06-premium-slugs',
  '2026-11-27T07-support',
  '2026-11-27T08-premium-purchases',
  '2026-11-27T09-premium-targets',
  '2026-11-28T05-click-publishes-counted',
  '2026-11-28T06-paid-periods',
  '2026-11-28T06-urgent-ticket-digest',
  '2026-11-28T07-suspended-link-owners',
  '2026-11-28T12-premium-payments',
];

describe('the features and their migrations, as composed', () => {
  it('run the shipped migrations in the order databases in use ran them', () => {
    const inOrder = Object.keys(migrations).sort();
    expect(inOrder.slice(0, SHIPPED_MIGRATIONS.length)).toEqual(SHIPPED_MIGRATIONS);
    // A later migration comes after every shipped one, so existing databases only ever add to the end.
    for (const name of inOrder.slice(SHIPPED_MIGRATIONS.length)) {
      expect(name > (SHIPPED_MIGRATIONS.at(-1) ?? '')).toBe(true);
    }
  });

  it('name each feature once', () => {
    const names = features.map((feature) => feature.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
