import { describe, expect, it } from 'vitest';
import { hasVisibleText, optionalVisibleText, visibleText } from './text';

/** Texts that put nothing on screen, each made only of characters a blank-looking field may hide. */
const invisible: [string, string][] = [
  ['a zero-width space', '\u200B'],
  ['zero-width non-joiner and joiner', '\u200C\u200D'],
  ['a word joiner', '\u2060'],
  ['a byte order mark', '\uFEFF'],
  ['a soft hyphen', '\u00AD'],
  ['bidirectional marks', '\u200E\u200F\u202E'],
  ['an ideographic space and a no-break space', '\u3000\u00A0'],
  ['a Hangul filler', '\u3164'],
  ['a blank braille pattern', '\u2800'],
  ['a variation selector', '\uFE0F'],
  ['a tag character', '\u{E0041}'],
  ['spaces, tabs and line breaks around a zero-width space', ' \t\n\u200B \r\n'],
];

describe('visible text', () => {
  it.each(invisible)('finds nothing visible in %s', (_name, text) => {
    expect(hasVisibleText(text)).toBe(false);
  });

  it('finds letters, digits, punctuation and emoji visible', () => {
    for (const text of ['a', '0', '.', '😀', 'ß', '中', '\u200Bx\u200B'])
      expect(hasVisibleText(text)).toBe(true);
  });

  it('refuses a required text with nothing visible, with the rule it broke', () => {
    const subject = visibleText(200);
    for (const [, text] of invisible) {
      const parsed = subject.safeParse(text);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('must not be blank');
    }
    expect(visibleText(10, 'is required').safeParse('\u200B').error?.issues[0]?.message).toBe('is required');
  });

  it('keeps a text with visible content whole: an emoji sequence keeps its zero-width joiners', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(visibleText(200).parse(`  ${family} hello\u200B  `)).toBe(`${family} hello\u200B`);
    expect(optionalVisibleText(200).parse(family)).toBe(family);
  });

  it('makes an optional text with nothing visible none', () => {
    const name = optionalVisibleText(100);
    for (const [, text] of invisible) expect(name.parse(text)).toBeNull();
    expect(name.parse(' Ada ')).toBe('Ada');
    expect(name.safeParse('x'.repeat(101)).success).toBe(false);
  });
});
