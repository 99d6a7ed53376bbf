import { describe, expect, it } from 'vitest';
import { percentChange, resolvePeriod } from './period';

const now = new Date('2026-11-03T15:20:00Z');

describe("a range's hours and days", () => {
  it('24h: the 24 whole hours up to the current one, and the 24 before', () => {
    const period = resolvePeriod({ range: '24h' }, now);
    expect(period.starts).toHaveLength(24);
    expect(period.starts.at(-1)?.toISOString()).toBe('2026-11-03T15:00:00.000Z');
    expect(period.from.toISOString()).toBe('2026-11-02T16:00:00.000Z');
    expect(period.to.toISOString()).toBe('2026-11-03T16:00:00.000Z');
    expect(period.previousFrom.toISOString()).toBe('2026-11-01T16:00:00.000Z');
  });

  it('a day across the end of summer time lasts 25 hours: days start at local midnight', () => {
    const period = resolvePeriod({ range: '7d', tz: 'America/New_York' }, now);
    expect(period.starts.map((start) => start.toISOString())).toEqual([
      '2026-10-28T04:00:00.000Z',
      '2026-10-29T04:00:00.000Z',
      '2026-10-30T04:00:00.000Z',
      '2026-10-31T04:00:00.000Z',
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
      '2026-11-03T05:00:00.000Z',
    ]);
    expect(period.to.toISOString()).toBe('2026-11-04T05:00:00.000Z');
  });

  it("today is the reader's: at 15:20 UTC it is already the 4th in Auckland", () => {
    const period = resolvePeriod({ range: '7d', tz: 'Pacific/Auckland' }, now);
    expect(period.starts.at(-1)?.toISOString()).toBe('2026-11-03T11:00:00.000Z');
  });

  it('a zone half an hour off UTC starts its days on the half hour', () => {
    const period = resolvePeriod({ from: '2026-11-01', to: '2026-11-02', tz: 'Asia/Kolkata' }, now);
    expect(period.from.toISOString()).toBe('2026-10-31T18:30:00.000Z');
    expect(period.previousFrom.toISOString()).toBe('2026-10-29T18:30:00.000Z');
  });

  it('refuses a custom range ending after today', () => {
    expect(() => resolvePeriod({ from: '2026-11-03', to: '2026-11-04' }, now)).toThrow(
      'to must not be after today',
    );
  });
});

describe('the change from the previous range', () => {
  it.each([
    [10, 5, 100],
    [5, 10, -50],
    [1, 3, -67],
    [0, 4, -100],
    [3, 0, null],
    [0, 0, null],
  ])('%i clicks after %i: %s per cent', (current, previous, change) => {
    expect(percentChange(current, previous)).toBe(change);
  });
});
