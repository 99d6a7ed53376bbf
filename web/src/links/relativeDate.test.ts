import { describe, expect, it } from 'vitest';
import { relativeCreationDate } from './relativeDate';

const now = new Date(2026, 10, 22, 10, 0);
const at = (day: number, hour = 12) => new Date(2026, 10, day, hour).toISOString();

describe('relativeCreationDate', () => {
  it('reads "Today" for the same calendar day', () => {
    expect(relativeCreationDate(at(22, 0), now)).toBe('Today');
    expect(relativeCreationDate(now.toISOString(), now)).toBe('Today');
  });

  it('reads "1 day ago" for yesterday, even late yesterday', () => {
    expect(relativeCreationDate(at(21, 23), now)).toBe('1 day ago');
  });

  it('reads "N days ago" below a week', () => {
    expect(relativeCreationDate(at(20), now)).toBe('2 days ago');
    expect(relativeCreationDate(at(16), now)).toBe('6 days ago');
  });

  it('shows the locale date from a week on', () => {
    expect(relativeCreationDate(at(15), now, 'en-US')).toBe('11/15/2026');
    expect(relativeCreationDate(at(1), now, 'de-DE')).toBe('1.11.2026');
  });
});
