import { describe, expect, it } from 'vitest';
import { copyStats, readTimeText } from './copyStats';

const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');

describe('copyStats', () => {
  it('reads no words in no text, and takes no minutes', () => {
    expect(copyStats('')).toEqual({ words: 0, characters: 0, readMinutes: 0 });
    expect(copyStats('## **  **\n\n- ')).toMatchObject({ words: 0, readMinutes: 0 });
  });

  it('takes a minute for 1 to 200 words, and rounds up after that at 200 words a minute', () => {
    expect(copyStats('Hello').readMinutes).toBe(1);
    expect(copyStats(words(200)).readMinutes).toBe(1);
    expect(copyStats(words(201)).readMinutes).toBe(2);
    expect(copyStats(words(400)).readMinutes).toBe(2);
    expect(copyStats(words(401)).readMinutes).toBe(3);
  });

  it('counts words without the markdown marks around them', () => {
    // Cookies, We, set, one, cookie, sid, Don't, worry, sign-in, is, safe.
    expect(copyStats("## Cookies\n\nWe set **one** cookie: `sid`. Don't worry, sign-in is safe.").words).toBe(
      11,
    );
    expect(copyStats('[privacy notice](/privacy)').words).toBe(3);
  });

  it('counts characters as a reader sees them', () => {
    expect(copyStats('Café 👍🏽').characters).toBe(6);
    expect(copyStats('a\nb').characters).toBe(3);
  });

  it('words the read time', () => {
    expect(readTimeText(0)).toBe('0 min read');
    expect(readTimeText(3)).toBe('3 min read');
  });
});
