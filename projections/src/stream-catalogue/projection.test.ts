import type { RecordedEvent } from '@sniplink/platform';
import { events, type GivenEvent } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from '../testing/fixtures';
import { streamCatalogue } from './projection';

/** A distinct user id per stream and step. */
const userId = (stream: number, step: number) =>
  `0193a1b2-0000-7000-8000-${String(stream * 1_000 + step).padStart(12, '0')}`;

/**
 * 12 streams (`link-0`, `user-1`, …) of 23 events each, a second apart per revision from 2026-11-01, in
 * appends of up to 5 events, round-robin: the streams' events interleave in the log.
 */
const history: GivenEvent[] = [];
for (let revision = 0; revision < 23; revision += 5) {
  for (let stream = 0; stream < 12; stream++) {
    for (let step = revision; step < Math.min(revision + 5, 23); step++) {
      const data = { userId: userId(stream, step) };
      history.push({
        streamId: `${stream % 2 ? 'user' : 'link'}-${stream}`,
        event: step % 3 === 0 ? events.emailClaimed(data) : events.emailReleased(data),
        occurredAt: new Date(Date.UTC(2026, 10, 1, 0, 0, step)),
      });
    }
  }
}

describe('stream catalogue projection', () => {
  const spec = projectionSpec(streamCatalogue);
  let recorded: RecordedEvent[];
  beforeAll(async () => {
    recorded = await spec.given(history);
  });

  const rows = () => snapshot(spec.db, 'rm_streams', 'stream_id');

  it('describes every stream: category, last revision, count, first and last times', async () => {
    const all = await rows();
    expect(all).toHaveLength(12);
    expect(all).toContainEqual({
      stream_id: 'user-1',
      category: 'user',
      last_revision: '22',
      event_count: '23',
      last_event_type: 'EmailReleased',
      first_event_at: '2026-11-01T00:00:00.000Z',
      last_event_at: '2026-11-01T00:00:22.000Z',
    });
  });

  it('gives the same rows whatever the batch size', async () => {
    const once = await rows();
    await sql`TRUNCATE rm_streams`.execute(spec.db);
    for (let i = 0; i < recorded.length; i += 7) await spec.apply(recorded.slice(i, i + 7));
    expect(await rows()).toEqual(once);
  });
});
