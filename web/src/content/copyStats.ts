/** Reading speed the read time assumes, in words per minute. */
export const WORDS_PER_MINUTE = 200;

/** A word: letters or digits, with an apostrophe or hyphen inside it ("don't", "sign-in"). Markdown marks are not words. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export interface CopyStats {
  words: number;
  /** Characters as a reader counts them: an emoji or an accented letter is one. */
  characters: number;
  /** Whole minutes, rounded up: any text at all takes at least a minute; no words take none. */
  readMinutes: number;
}

/** The editor's statistics of a markdown text. */
export function copyStats(markdown: string): CopyStats {
  const words = markdown.match(WORD)?.length ?? 0;
  const characters = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(markdown)].length;
  return { words, characters, readMinutes: Math.ceil(words / WORDS_PER_MINUTE) };
}

/** "1 min read", "0 min read". */
export const readTimeText = (minutes: number) => `${minutes} min read`;
