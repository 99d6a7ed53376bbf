import { describe, expect, it } from 'vitest';
import { countTicks } from '../components/countTicks';
import { changeText, dayLabel, hourLabel, namedBars, startLabel } from './axis';

describe('the counts axis', () => {
  it.each([
    [0, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [4, [0, 1, 2, 3, 4]],
    [5, [0, 2, 4, 6]],
    [9, [0, 5, 10]],
    [37, [0, 10, 20, 30, 40]],
    [1234, [0, 500, 1000, 1500]],
  ])('largest count %i: reads %j, whole numbers up to at least that count', (largest, ticks) => {
    expect(countTicks(largest)).toEqual(ticks);
  });

  it('never shows a fraction or skips a step: every tick is a whole number, evenly spaced', () => {
    for (let largest = 0; largest <= 2000; largest++) {
      const ticks = countTicks(largest);
      const step = (ticks[1] as number) - (ticks[0] as number);
      expect(ticks.every((tick, i) => Number.isInteger(tick) && tick === i * step)).toBe(true);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(largest);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });
});

describe('dates and hours under the bars', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('writes a day of this year without its year, another with it, in the reader’s locale', () => {
    expect(dayLabel('2026-11-27T00:00:00Z', { timeZone: 'UTC', locale: 'en-GB', now })).toBe('27 Nov');
    expect(dayLabel('2026-11-27T00:00:00Z', { timeZone: 'UTC', locale: 'en-US', now })).toBe('Nov 27');
    expect(dayLabel('2025-12-30T00:00:00Z', { timeZone: 'UTC', locale: 'en-GB', now })).toBe('30 Dec 2025');
    expect(dayLabel('2025-12-30T00:00:00Z', { timeZone: 'UTC', locale: 'de-DE', now })).toBe('30. Dez. 2025');
  });

  it('names a day in the time zone it was counted in', () => {
    // Midnight in Auckland is 11:00 UTC the day before.
    expect(dayLabel('2026-11-02T11:00:00Z', { timeZone: 'Pacific/Auckland', locale: 'en-GB', now })).toBe(
      '3 Nov',
    );
  });

  it('writes hours as the locale does, with the day in a tooltip', () => {
    expect(hourLabel('2026-11-28T14:00:00Z', { timeZone: 'UTC', locale: 'en-GB' })).toBe('14:00');
    expect(hourLabel('2026-11-28T14:00:00Z', { timeZone: 'UTC', locale: 'en-US' })).toBe('2:00 PM');
    expect(startLabel('2026-11-28T14:00:00Z', 'hour', { timeZone: 'UTC', locale: 'en-GB', now }, true)).toBe(
      '28 Nov, 14:00',
    );
  });

  it('names about six bars, always the last', () => {
    const named = namedBars(30);
    const indexes = Array.from({ length: 30 }, (_, i) => i).filter(named);
    expect(indexes.at(-1)).toBe(29);
    expect(indexes.length).toBeLessThanOrEqual(6);
    expect(Array.from({ length: 7 }, (_, i) => i).filter(namedBars(7)).length).toBe(4);
  });
});

describe('the change from the range before', () => {
  it.each([
    [25, '+25%'],
    [-40, '-40%'],
    [0, 'no change'],
    [null, null],
  ])('%s per cent reads %s', (change, text) => {
    expect(changeText(change, 'en-US')?.replace('−', '-') ?? null).toBe(text);
  });
});
