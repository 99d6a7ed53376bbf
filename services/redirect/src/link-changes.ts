import type { PgNotifications } from '@sniplink/platform';

const CHANNEL = 'link_codes_changed';
/** NOTIFY payloads are limited to 8,000 bytes; a bigger change set tells caches to start over. */
const MAX_PAYLOAD = 7_000;

/** Tells every redirect cache (this process at once, the others through NOTIFY) which codes changed. */
export function publishCodeChanges(notifications: PgNotifications) {
  return async (codes: string[]): Promise<void> => {
    const payload = JSON.stringify(codes);
    await notifications.publish(CHANNEL, payload.length > MAX_PAYLOAD ? '*' : payload);
  };
}

/**
 * Feeds a cache from those messages. An empty payload means the listening connection was lost and
 * came back: changes may have been missed, so the cache starts over.
 */
export function followCodeChanges(
  notifications: PgNotifications,
  cache: { evict(keys: readonly string[]): void; clear(): void },
): Promise<() => void> {
  return notifications.listen(CHANNEL, (payload) => {
    if (payload === '' || payload === '*') cache.clear();
    else cache.evict(JSON.parse(payload) as string[]);
  });
}
