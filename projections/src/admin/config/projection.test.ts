import type { ConfigEvent } from '@sniplink/contracts';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { until } from '@sniplink/test-support/until';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withReadModels } from '../../read-models';
import { readEntireLog, snapshot } from '../../testing/fixtures';
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
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    for (const [key, events] of Object.entries(histories)) {
      for (const [revision, event] of events.entries()) {
        await stack.eventStore.appendToStream(
          `config-${key}`,
          [{ id: uuidv7(), ...event, occurredAt: new Date(Date.UTC(2027, 0, 1, 0, 0, revision)) }],
          revision === 0 ? 'no_stream' : BigInt(revision - 1),
        );
      }
    }
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    const { db } = stack.database;
    await sql`TRUNCATE rm_admin_config`.execute(db);
    // A reader sees an append once every older transaction on the server has ended (other databases' too).
    const events = await until(
      () => readEntireLog(stack.eventStore),
      (read) => read.length === Object.values(histories).flat().length,
    );
    for (let i = 0; i < events.length; i += batchSize) {
      const batch = events.slice(i, i + batchSize);
      for (let t = 0; t < times; t++) {
        await db.transaction().execute((trx) => configProjection.apply(withReadModels(trx), batch));
      }
    }
    return snapshot(db, 'rm_admin_config', 'key');
  };

  it('gives the same rows when every event is delivered twice, whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(50, 2)).toEqual(once);
    expect(await applyInBatches(1, 2)).toEqual(once);
  });

  it('lists the entries as their last event left them; a deleted one is gone until set again', async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
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
