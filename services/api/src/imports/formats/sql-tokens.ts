import { textChunks } from './link-fields';

/** A token of a MySQL dump: enough of SQL to read INSERT statements and pass over everything else. */
export type SqlToken =
  | { kind: 'word'; text: string }
  | { kind: 'name'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'punct'; text: string };

// MySQL's backslash escapes inside quoted strings; \% and \_ keep their backslash as MySQL does.
const ESCAPES: Record<string, string> = {
  '0': '\0',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  '%': '\\%',
  _: '\\_',
};

const WORD_START = /[A-Za-z_$]/;
const WORD_PART = /[\w$]/;
const DIGIT = /[0-9]/;
const NUMBER_PART = /[0-9.eE+-]/;

/**
 * Streams the tokens of a SQL dump. Only the unread tail of the text is kept between chunks (at most one token),
 * so a dump of any size reads in the memory of its longest value.
 */
export async function* sqlTokens(input: AsyncIterable<Uint8Array | string>): AsyncIterable<SqlToken> {
  let text = '';
  for await (const chunk of textChunks(input)) {
    text += chunk;
    const { tokens, rest } = readTokens(text, false);
    text = rest;
    yield* tokens;
  }
  const { tokens, rest } = readTokens(text, true);
  yield* tokens;
  if (rest.trim() !== '') throw new Error('The SQL dump ends inside a string or comment');
}

/** Reads the whole tokens of `text`; `rest` is the start of a token that the next chunk may complete. */
function readTokens(text: string, final: boolean): { tokens: SqlToken[]; rest: string } {
  const tokens: SqlToken[] = [];
  let at = 0;
  const length = text.length;
  while (at < length) {
    const start = at;
    const char = text[at] as string;
    const next = text[at + 1];
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') {
      at += 1;
      continue;
    }
    if ((char === '-' && next === '-') || char === '#') {
      const end = text.indexOf('\n', at);
      if (end === -1) {
        if (final) return { tokens, rest: '' };
        return { tokens, rest: text.slice(start) };
      }
      at = end + 1;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = text.indexOf('*/', at + 2);
      if (end === -1) return { tokens, rest: text.slice(start) };
      at = end + 2;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') {
      const read = readQuoted(text, at, char, final);
      if (read === null) return { tokens, rest: text.slice(start) };
      tokens.push({ kind: char === '`' ? 'name' : 'string', text: read.value });
      at = read.end;
      continue;
    }
    if (
      WORD_START.test(char) ||
      DIGIT.test(char) ||
      (char === '-' && next !== undefined && DIGIT.test(next))
    ) {
      const isWord = WORD_START.test(char);
      let end = at + 1;
      while (end < length && (isWord ? WORD_PART : NUMBER_PART).test(text[end] as string)) end += 1;
      if (end === length && !final) return { tokens, rest: text.slice(start) };
      tokens.push({ kind: isWord ? 'word' : 'number', text: text.slice(at, end) });
      at = end;
      continue;
    }
    if (char === '-' && next === undefined && !final) return { tokens, rest: text.slice(start) };
    tokens.push({ kind: 'punct', text: char });
    at += 1;
  }
  return { tokens, rest: '' };
}

/** A quoted string or name from `at`, or null when its closing quote is not in `text` yet. */
function readQuoted(
  text: string,
  at: number,
  quote: string,
  final: boolean,
): { value: string; end: number } | null {
  let value = '';
  let from = at + 1;
  let index = from;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\' && quote !== '`') {
      const escaped = text[index + 1];
      if (escaped === undefined) return null;
      value += text.slice(from, index) + (ESCAPES[escaped] ?? escaped);
      index += 2;
      from = index;
      continue;
    }
    if (char === quote) {
      // A doubled quote is the quote itself.
      if (text[index + 1] === quote) {
        value += text.slice(from, index + 1);
        index += 2;
        from = index;
        continue;
      }
      if (index + 1 === text.length && !final) return null; // the next chunk may start with the second of a pair
      return { value: value + text.slice(from, index), end: index + 1 };
    }
    index += 1;
  }
  return null;
}
