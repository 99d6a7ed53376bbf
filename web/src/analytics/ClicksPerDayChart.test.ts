import { describe, expect, it } from 'vitest';
import { countTicks } from './ClicksPerDayChart';

describe('the counts axis of clicks per day', () => {
  it.each([
    [0, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [4, [0, 1, 2, 3, 4]],
    [5, [0, 2, 4, 6]],
    [37, [0, 10, 20, 30, 40]],
    [1234, [0, 500, 1000, 1500]],
  ])('busiest day %i: reads %j, whole numbers up to at least that day', (busiest, ticks) => {
    expect(countTicks(busiest)).toEqual(ticks);
  });
});
