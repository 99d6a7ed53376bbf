import type { ConfigEvent } from '@sniplink/contracts';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { configProjection } from './projection';
import { configEntries, configEntry } from './queries';

/** A price set, changed and deleted, then set again; a limit set and deleted; a note set and changed. */
const histories: Record<string, ConfigEvent[]> = {
  'premium.slug_price_cents': [
    {
      type: 'ConfigEntryCreated',
      data: { key: 'premium.slug_price_cents', value: '2000', description: null },
    },
    {
      type: 'ConfigEntryUpdated',
      data: { key: 'premium.slug_price_cents', value: '3000', description: 'Autumn', previousValue: '2000' },
    },
    { type: 'ConfigEntryDeleted', data: { key: 'premium.slug_price_cents', previousValue: '3000' } },
    {
      type: 'ConfigEntryCreated',
      data: { key: 'premium.slug_price_cents', value: '1500', description: 'Sale' },
    },
  ],
  'links.free_limit': [
    { type: 'ConfigEntryCreated', data: { key: 'links.free_limit', value: '2', description: null } },
    { type: 'ConfigEntryDeleted', data: { key: 'links.free_limit', previousValue: '2' } },
  ],
  'banner.note': [
    { type: 'ConfigEntryCreated', data: { key: 'banner.note', value: 'Hello', description: null } },
    {
      type: 'ConfigEntryUpdated',
      data: { key: 'banner.note', value: 'Goodbye', description: 'Shown on top', previousValue: 'Hello' },
    },
  ],
};

describe('config entries projection', () => {
  const spec = projectionSpec(configProjection);
  // Each stream's events a second apart from 2027-01-01 00:00 UTC, as their revisions go.
  beforeAll(() =>
    spec.given(
      Object.entries(histories).flatMap(([key, history]) =>
        history.map((event, revision) => ({
          streamId: `config-${key}`,
          event,
          occurredAt: new Date(Date.UTC(2027, 0, 1, 0, 0, revision)),
        })),
      ),
    ),
  );

  it('lists the entries as their last event left them; a deleted one is gone until set again', async () => {
    const { db } = spec;
    expect(await configEntries(db)).toEqual([
      {
        key: 'banner.note',
        value: 'Goodbye',
        description: 'Shown on top',
        updatedAt: new Date(Date.UTC(2027, 0, 1, 0, 0, 1)),
      },
      {
        key: 'premium.slug_price_cents',
        value: '1500',
        description: 'Sale',
        updatedAt: new Date(Date.UTC(2027, 0, 1, 0, 0, 3)),
      },
    ]);
    expect(await configEntry(db, 'links.free_limit')).toBeUndefined();
  });
});
