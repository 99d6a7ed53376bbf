/**
 * What an audit entry shows of an event's data. The audit history knows no event type (it lists every
 * event an admin or operator caused), so it keeps what an event says in the open and leaves out, by shape
 * and by name, what an entry must never show:
 * - personal data: every ciphertext value (`enc:…`, contracts/src/accounts/events.ts), never decrypted
 *   here, so that an erasure leaves nothing readable behind; and fields named like personal data, in case
 *   one is ever stored in the clear;
 * - secrets and pseudonyms: fields named like passwords, tokens, keys, signatures, hashes and salts.
 * The rest is bounded: text cut at 200 characters, 20 fields or items per level, 3 levels deep.
 */
const ENCRYPTED = 'enc:';
const PERSONAL = /e-?mail|first_?name|last_?name|full_?name|profile_?image/i;
const SECRET =
  /pass(word|phrase)|secret|token|hash|salt|credential|cookie|session|signature|private|api_?key|cipher/i;
const MAX_TEXT = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 3;

export function auditDetails(data: unknown): Record<string, unknown> {
  const shown = visible(data, 0);
  if (isRecord(shown)) return shown;
  return shown === undefined ? {} : { value: shown };
}

/** The value as an entry may show it, or undefined when nothing of it may be shown. */
function visible(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (value.startsWith(ENCRYPTED)) return undefined;
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    return value
      .slice(0, MAX_ITEMS)
      .map((item) => visible(item, depth + 1))
      .filter((item) => item !== undefined);
  }
  if (isRecord(value)) return visibleFields(value, depth);
  return undefined;
}

function visibleFields(record: Record<string, unknown>, depth: number): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  let count = 0;
  for (const [name, value] of Object.entries(record)) {
    if (PERSONAL.test(name) || SECRET.test(name)) continue;
    const field = visible(value, depth + 1);
    if (field === undefined) continue;
    shown[name] = field;
    if (++count >= MAX_ITEMS) break;
  }
  return shown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
