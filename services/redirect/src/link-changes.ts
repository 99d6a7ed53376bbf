import type { Broadcast } from '@sniplink/platform';

/** The name of the broadcast these functions are given (the composition root opens it). */
export const CODE_CHANGES_CHANNEL = 'link_codes_changed';
/** A broadcast message is kept short (PostgreSQL's NOTIFY, for one, takes under 8,000 bytes); a bigger
 * change set tells caches to start over. */
const MAX_PAYLOAD = 7_000;

/** Tells every redirect cache (this process at once, the others soon after) which codes changed. */
export function publishCodeChanges(changes: Broadcast) {
  return async (codes: string[]): Promise<void> => {
    const payload = JSON.stringify(codes);
    await changes.publish(payload.length > MAX_PAYLOAD ? '*' : payload);
  };
}

/**
 * Feeds a cache from those messages. An empty payload means messages may have been missed (a lost
 * connection came back), so the cache starts over.
 */
export function followCodeChanges(
  changes: Broadcast,
  cache: { evict(keys: readonly string[]): void; clear(): void },
): Promise<() => void> {
  return changes.listen((payload) => {
    if (payload === '' || payload === '*') cache.clear();
    else cache.evict(JSON.parse(payload) as string[]);
  });
}
