import { describe, expect, it } from 'vitest';
import { readableDate, relativeDay } from './dates';

const now = new Date(2026, 10, 22, 10, 0);
const at = (day: number, hour = 12) => new Date(2026, 10, day, hour).toISOString();

describe('readableDate', () => {
  it("writes the date as the reader's locale does, without the year only within this year", () => {
    expect(readableDate(new Date(2027, 2, 12), { now, locale: 'en-GB' })).toBe('12 March 2027');
    expect(readableDate(new Date(2027, 2, 12), { now, locale: 'en-US' })).toBe('March 12, 2027');
    expect(readableDate(new Date(2026, 2, 12), { now, locale: 'en-GB' })).toBe('12 March');
    expect(readableDate(new Date(2026, 2, 12), { now, locale: 'de-DE' })).toBe('12. März');
  });
});

describe('relativeDay', () => {
  it('reads "today" for the same calendar day, "yesterday" even late yesterday', () => {
    expect(relativeDay(at(22, 0), now, 'en')).toBe('today');
    expect(relativeDay(at(21, 23), now, 'en')).toBe('yesterday');
  });

  it('reads "N days ago" below a week, in the reader\'s language', () => {
    expect(relativeDay(at(20), now, 'en')).toBe('2 days ago');
    expect(relativeDay(at(16), now, 'en')).toBe('6 days ago');
    expect(relativeDay(at(20), now, 'de')).toBe('vorgestern');
  });

  it('shows the date from a week on, with the year only when it is another year', () => {
    expect(relativeDay(at(15), now, 'en-GB')).toBe('15 Nov');
    expect(relativeDay(new Date(2025, 10, 1).toISOString(), now, 'en-US')).toBe('Nov 1, 2025');
  });
});
