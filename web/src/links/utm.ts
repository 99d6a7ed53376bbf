/** The campaign parameters analytics tools read from a landing page's address, in the order they are added. */
export const utmKeys = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof utmKeys)[number];
export type UtmValues = Record<UtmKey, string>;

export const noUtm: UtmValues = { source: '', medium: '', campaign: '', term: '', content: '' };

const paramName = (key: UtmKey) => `utm_${key}`;

/** The address split at its query and fragment, each kept as written (without `?` and `#`). */
function partsOf(url: string): { base: string; query: string; fragment: string | undefined } {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? undefined : url.slice(hash + 1);
  const question = beforeHash.indexOf('?');
  if (question === -1) return { base: beforeHash, query: '', fragment };
  return { base: beforeHash.slice(0, question), query: beforeHash.slice(question + 1), fragment };
}

const joined = (base: string, pairs: readonly string[], fragment: string | undefined): string =>
  `${base}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}${fragment === undefined ? '' : `#${fragment}`}`;

/** A query name or value decoded (`+` is a space there); a malformed escape is taken as written. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

const nameOf = (pair: string): string => decoded(pair.split('=', 1)[0] ?? '');
const pairValue = (pair: string): string =>
  pair.includes('=') ? decoded(pair.slice(pair.indexOf('=') + 1)) : '';

/**
 * The target with its campaign parameters: each filled value (trimmed, percent-encoded) replaces the
 * parameter of that name where it stands, or is added after the others; an empty one leaves the target's
 * own. Every other parameter and the fragment stay exactly as written (URLSearchParams would re-encode
 * them: `a=b%20c` would come back as `a=b+c`, `flag` as `flag=`).
 */
export function withUtm(url: string, utm: UtmValues): string {
  const { base, query, fragment } = partsOf(url);
  const pairs = query === '' ? [] : query.split('&');
  for (const key of utmKeys) {
    const value = utm[key].trim();
    if (value === '') continue;
    const pair = `${paramName(key)}=${encodeURIComponent(value)}`;
    const at = pairs.findIndex((existing) => nameOf(existing) === paramName(key));
    if (at === -1) {
      pairs.push(pair);
      continue;
    }
    pairs[at] = pair;
    // A name repeated in the target would still win in some tools: one value remains.
    for (let later = pairs.length - 1; later > at; later--)
      if (nameOf(pairs[later] ?? '') === paramName(key)) pairs.splice(later, 1);
  }
  return joined(base, pairs, fragment);
}

/**
 * The target without its campaign parameters, and their values (decoded): what the edit dialog shows in
 * the URL field and in the builder, so that emptying a builder field removes that parameter on save.
 */
export function splitUtm(url: string): { url: string; utm: UtmValues } {
  const { base, query, fragment } = partsOf(url);
  const utm = { ...noUtm };
  const kept: string[] = [];
  for (const pair of query === '' ? [] : query.split('&')) {
    const key = utmKeys.find((candidate) => nameOf(pair) === paramName(candidate));
    if (key === undefined || utm[key] !== '') {
      if (key === undefined) kept.push(pair);
      continue;
    }
    utm[key] = pairValue(pair);
  }
  return { url: joined(base, kept, fragment), utm };
}

/** Whether any campaign parameter is filled. */
export const hasUtm = (utm: UtmValues): boolean => utmKeys.some((key) => utm[key].trim() !== '');
