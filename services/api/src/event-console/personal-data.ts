import { ENCRYPTED_PLACEHOLDER, ERASED_PLACEHOLDER } from '@sniplink/contracts/event-console/api';
import type { Keyring } from '@sniplink/platform';

/** How a ciphertext value begins (contracts/src/accounts/events.ts, `encrypted`). */
const CIPHERTEXT = 'enc:';

const isCiphertext = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(CIPHERTEXT);

/**
 * A value as JSON can carry it, each ciphertext passed through `show` (with its path, `items.0.name`):
 * bigints as decimal strings, dates as ISO instants, maps as objects, sets as arrays. A decider's state
 * holds all of these; an event's data only plain JSON.
 */
async function mapped(
  value: unknown,
  show: (ciphertext: string, path: string) => Promise<string>,
  path: string[] = [],
): Promise<unknown> {
  if (isCiphertext(value)) return show(value, path.join('.'));
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Set) return mapped([...value], show, path);
  if (value instanceof Map) return mapped(Object.fromEntries(value), show, path);
  // A value that says how it is written as JSON (a persistent map in a state) is shown as that.
  if (hasToJson(value)) return mapped(value.toJSON(), show, path);
  if (Array.isArray(value)) {
    return Promise.all(value.map((item, index) => mapped(item, show, [...path, String(index)])));
  }
  if (typeof value === 'object' && value !== null) {
    const entries = await Promise.all(
      Object.entries(value).map(async ([name, item]) => [name, await mapped(item, show, [...path, name])]),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

const hasToJson = (value: unknown): value is { toJSON(): unknown } =>
  typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';

/** The value with every personal value replaced by `[encrypted]`, and where those were. */
export async function withPersonalDataHidden(value: unknown): Promise<{ shown: unknown; fields: string[] }> {
  const fields: string[] = [];
  const shown = await mapped(value, async (_ciphertext, path) => {
    fields.push(path);
    return ENCRYPTED_PLACEHOLDER;
  });
  return { shown, fields };
}

/**
 * The value with every personal value decrypted, or `[erased]` where no key reads it any more. Which user
 * a value was encrypted for is not written beside it, so each of `owners` is tried: a wrong one fails the
 * cipher's authentication (the user id is its associated data), the right one whose key was shredded reads
 * nothing.
 */
export async function withPersonalDataShown(
  value: unknown,
  owners: readonly string[],
  keyring: Keyring,
): Promise<{ shown: unknown; fields: string[] }> {
  const fields: string[] = [];
  const shown = await mapped(value, async (ciphertext, path) => {
    fields.push(path);
    return (await decryptedByAny(ciphertext, owners, keyring)) ?? ERASED_PLACEHOLDER;
  });
  return { shown, fields };
}

async function decryptedByAny(
  ciphertext: string,
  owners: readonly string[],
  keyring: Keyring,
): Promise<string | null> {
  for (const owner of owners) {
    try {
      const plaintext = await keyring.decrypt(owner, ciphertext);
      if (plaintext !== null) return plaintext;
    } catch {
      // Not this owner's key (or not a value this keyring wrote): the next owner may read it.
    }
  }
  return null;
}

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The fields that name the user a stream's personal data belongs to (a ticket's `userId`). */
const OWNER_FIELDS = ['userId', 'ownerId', 'buyerId'];

/**
 * Whose key may have encrypted a stream's personal data: the id the stream is named after (`user-{id}`,
 * `apikeys-{id}`) and the users its events name as their owner (a ticket's first event names its user).
 */
export function ownersOf(streamKey: string | null, events: readonly { data: unknown }[]): string[] {
  const owners = new Set<string>();
  if (streamKey && USER_ID.test(streamKey)) owners.add(streamKey.toLowerCase());
  for (const { data } of events) {
    if (typeof data !== 'object' || data === null) continue;
    for (const field of OWNER_FIELDS) {
      const value = (data as Record<string, unknown>)[field];
      if (typeof value === 'string' && USER_ID.test(value)) owners.add(value.toLowerCase());
    }
  }
  return [...owners];
}
