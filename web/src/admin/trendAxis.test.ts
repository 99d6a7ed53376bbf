import { describe, expect, it } from 'vitest';
import { countTicks as axisTicks } from '../components/countTicks';
import { dayLabel } from './trendAxis';

describe('the Overview trend charts’ axis', () => {
  it('stops at round integers from 0 to at or above the largest value', () => {
    expect(axisTicks(0)).toEqual([0, 1]);
    expect(axisTicks(3)).toEqual([0, 1, 2, 3]);
    expect(axisTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(axisTicks(130)).toEqual([0, 50, 100, 150]);
    expect(axisTicks(24.5)).toEqual([0, 10, 20, 30]);
  });

  it('names a day in the reader’s words, with the year only outside the current one', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    expect(dayLabel('2026-11-03', 'en-US', now)).toBe('Nov 3');
    expect(dayLabel('2025-12-30', 'en-US', now)).toBe('Dec 30, 2025');
    expect(dayLabel('2026-11-03', 'de-DE', now)).toBe('3. Nov.');
  });
});
