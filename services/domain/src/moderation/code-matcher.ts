import AhoCorasick from 'modern-ahocorasick';

/**
 * Which codes the admin's lists stop. A prohibited word refuses the code. A protected brand refuses it
 * too, unless the brand allows an approval: then the code may be taken but redirects only once an admin
 * approves it.
 *
 * How a code is compared (docs/moderation.md has the examples):
 * - ignoring case, and seeing through look-alike characters: 0→o, 1→i or l, 3→e, 4→a, 5→s, 7→t,
 *   @→a, $→s (`b4dw0rd` is `badword`, `g00gle` is `google`, `1ame` is `lame`);
 * - hyphens and underscores are ignored (`bad-word` and `bad_word` are `badword`);
 * - an entry of 4 letters or more is found anywhere inside the code (`mygoogledeals` has `google`);
 * - a shorter entry only as the whole code or as a whole part of it between hyphens, underscores or
 *   digits (`ibm`, `ibm-jobs`, `jobs_ibm_2024` have `ibm`; `ribmaker` and `gaps` do not have `ibm` and
 *   `gap`): three letters hide inside too many ordinary words to be matched there.
 */
export interface ModerationEntry {
  kind: 'word' | 'brand';
  /** As the admin typed it: a brand's name is what an approval names. */
  text: string;
  /** A brand's: the code may wait for an admin's approval instead of being refused. */
  requiresApproval?: boolean;
}

export type CodeVerdict =
  | { outcome: 'clear' }
  | { outcome: 'prohibited' }
  | { outcome: 'protected'; brand: string; requiresApproval: boolean };

/** Entries shorter than this only match a whole code or a whole part of it. */
export const MIN_INSIDE_MATCH = 4;

const LOOKALIKES: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
/** 1 stands for i or l: each reading is tried, up to this many 1s (the rest read as i). */
const MAX_AMBIGUOUS_ONES = 4;

/** An entry as it is compared: lower case, look-alikes read as letters, nothing but letters and digits. */
export function normaliseEntry(text: string): string {
  let normal = '';
  for (const char of text.toLowerCase()) {
    const letter = LOOKALIKES[char] ?? char;
    if (/[a-z0-9]/.test(letter)) normal += letter;
  }
  return normal;
}

/** The code's readings: lower case with look-alikes read as letters, one per reading of its 1s. */
function readingsOf(code: string): string[] {
  let readings = [''];
  let ones = 0;
  for (const char of code.toLowerCase()) {
    if (char === '1' && ones++ < MAX_AMBIGUOUS_ONES) {
      readings = readings.flatMap((reading) => [`${reading}i`, `${reading}l`]);
    } else {
      const letter = LOOKALIKES[char] ?? char;
      readings = readings.map((reading) => reading + letter);
    }
  }
  return readings;
}

const SEPARATORS = /[-_]/g;
const NOT_LETTERS = /[^a-z]+/;

/** The whole parts a short entry may be: each reading whole, and its runs of letters (as read, and as typed). */
function partsOf(code: string, readings: readonly string[]): Set<string> {
  const parts = new Set<string>();
  for (const part of code.toLowerCase().split(NOT_LETTERS)) parts.add(part);
  for (const reading of readings) {
    parts.add(reading.replace(SEPARATORS, ''));
    for (const part of reading.split(NOT_LETTERS)) parts.add(part);
  }
  parts.delete('');
  return parts;
}

interface Listed {
  brand: string | null;
  requiresApproval: boolean;
}

/** How much an entry weighs when several match: a prohibited word, then a refusing brand, then one in review. */
const weight = (listed: Listed) => (listed.brand === null ? 2 : listed.requiresApproval ? 0 : 1);

/**
 * The lists compiled once (an Aho–Corasick automaton for the long entries, a set for the short ones),
 * then asked per code: a check costs a few microseconds whatever the lists' length.
 */
export class CodeMatcher {
  private readonly inside: AhoCorasick<Listed> | null;
  private readonly whole = new Map<string, Listed>();

  constructor(entries: readonly ModerationEntry[]) {
    const long = new Map<string, Listed>();
    for (const entry of entries) {
      const normal = normaliseEntry(entry.text);
      if (normal === '') continue;
      const listed: Listed = {
        brand: entry.kind === 'brand' ? entry.text : null,
        requiresApproval: entry.kind === 'brand' && entry.requiresApproval === true,
      };
      const into = normal.length >= MIN_INSIDE_MATCH ? long : this.whole;
      const before = into.get(normal);
      if (!before || weight(listed) > weight(before)) into.set(normal, listed);
    }
    this.inside =
      long.size === 0 ? null : new AhoCorasick([...long].map(([pattern, data]) => ({ pattern, data })));
  }

  check(code: string): CodeVerdict {
    const readings = readingsOf(code);
    let found: Listed | undefined;
    const consider = (listed: Listed | undefined) => {
      if (listed && (!found || weight(listed) > weight(found))) found = listed;
    };
    if (this.whole.size > 0) for (const part of partsOf(code, readings)) consider(this.whole.get(part));
    if (this.inside) {
      for (const reading of readings) {
        for (const match of this.inside.iterate(reading.replace(SEPARATORS, ''))) consider(match.data);
        if (found && weight(found) === 2) break;
      }
    }
    if (!found) return { outcome: 'clear' };
    if (found.brand === null) return { outcome: 'prohibited' };
    return { outcome: 'protected', brand: found.brand, requiresApproval: found.requiresApproval };
  }
}
