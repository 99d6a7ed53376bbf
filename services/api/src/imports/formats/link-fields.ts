/** Small checks shared by the importers' parsers, so that every format words its errors the same way. */

/** The target as a link can keep it, or why it cannot: only absolute http(s) URLs redirect anywhere useful. */
export function checkTarget(raw: unknown): { url: string } | { error: string } {
  if (typeof raw !== 'string' || raw.trim() === '') return { error: 'missing URL' };
  const text = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { error: `invalid URL "${clip(text)}"` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { error: `invalid URL "${clip(text)}": only http and https links can be imported` };
  }
  return { url: text };
}

/** An ISO 8601 time for a date the source wrote, or null when it wrote none or nothing a date can be read from. */
export function isoTime(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  if (typeof raw === 'string' && raw.trim() === '') return null;
  const time = new Date(raw);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** A click total, or null when the source gives none or something that is not a whole count. */
export function clickCount(raw: unknown): number | null {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : raw;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** Text, or null for an empty or absent value. */
export function textOrNull(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  return text === '' ? null : text;
}

/** The short code in a short URL: its path without the leading slash, since the domain is not kept. */
export function codeOfShortUrl(raw: unknown): string | null {
  const text = textOrNull(raw);
  if (text === null) return null;
  try {
    const path = new URL(text).pathname.replace(/^\/+/, '');
    return path === '' ? null : decodeURIComponent(path);
  } catch {
    // A bare code without a domain is still the code.
    return /^[^\s/]+$/.test(text) ? text : null;
  }
}

/** Tags written as one text, split on commas (how exports flatten a tag list into one cell). */
export function splitTags(raw: unknown): string[] {
  if (typeof raw !== 'string') return [];
  return raw
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** Tags given as a JSON list; anything that is not a non-empty string is left out. */
export function tagList(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((tag): tag is string => typeof tag === 'string' && tag.trim() !== '')
    .map((t) => t.trim());
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Decodes the input as UTF-8 text chunk by chunk; a character split between two chunks is joined again and a
 * leading BOM is dropped, so the parsers see only what the user wrote.
 */
export async function* textChunks(input: AsyncIterable<Uint8Array | string>): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  for await (const chunk of input) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text !== '') {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}
