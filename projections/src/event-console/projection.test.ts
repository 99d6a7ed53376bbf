import { events, type GivenEvent } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventCorrelationsProjection } from './projection';
import { correlatedEventPlaces } from './queries';

const USER = '01890000-0000-7000-8000-0000000000a1';

/** One request that wrote two streams, another that wrote one, and an event stored with no correlation id. */
const history: GivenEvent[] = [
  { streamId: 'email-1', event: events.emailClaimed({ userId: USER }), correlationId: 'request-1' },
  { streamId: 'email-2', event: events.emailClaimed({ userId: USER }), correlationId: 'request-2' },
  { streamId: 'email-1', event: events.emailReleased({ userId: USER }), correlationId: 'request-1' },
  { streamId: 'email-3', event: events.emailClaimed({ userId: USER }) },
];

describe('event correlations projection', () => {
  const spec = projectionSpec(eventCorrelationsProjection);
  beforeAll(async () => {
    await spec.given(history);
  });

  it('finds one request’s events across streams, in log order, delivered once or twice', async () => {
    expect(await correlatedEventPlaces(spec.db, 'request-1', 10)).toEqual([
      { streamId: 'email-1', revision: 0n },
      { streamId: 'email-1', revision: 1n },
    ]);
    expect(await correlatedEventPlaces(spec.db, 'request-2', 10)).toEqual([
      { streamId: 'email-2', revision: 0n },
    ]);
    expect(await correlatedEventPlaces(spec.db, 'request-1', 1)).toHaveLength(1);
    expect(await correlatedEventPlaces(spec.db, 'unknown', 10)).toEqual([]);
  });
});
