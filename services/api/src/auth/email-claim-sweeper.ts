import { emailClaimDecider, userStreamId } from '@sniplink/domain';
import { type Database, type EventStore, handleCommand, type Logger, loadState } from '@sniplink/platform';
import type { Kysely } from 'kysely';

export interface SweeperDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  log: Logger;
}

/**
 * A registration claims the address first and records the account second; a crash in between leaves
 * an address held by an account that never came to be, and nobody could sign up with it again. This
 * finds claims older than `graceMs` whose account stream is empty and releases them.
 */
export async function releaseOrphanedEmailClaims(deps: SweeperDeps, graceMs = 10 * 60_000): Promise<number> {
  const candidates = await deps.db
    .selectFrom('rm_streams')
    .select('stream_id')
    .where('category', '=', 'email')
    .where('last_event_type', '=', 'EmailClaimed')
    .where('last_event_at', '<', new Date(Date.now() - graceMs))
    .limit(1_000)
    .execute();
  let released = 0;
  for (const { stream_id } of candidates) {
    const { holder } = await loadState(deps.eventStore, stream_id, emailClaimDecider);
    if (!holder || (await deps.eventStore.readStream(userStreamId(holder), { maxCount: 1 })).length > 0)
      continue;
    await handleCommand(deps.eventStore, stream_id, emailClaimDecider, {
      type: 'ReleaseEmail',
      userId: holder,
    });
    released += 1;
  }
  if (released > 0) deps.log.warn({ released }, 'released e-mail claims left by interrupted registrations');
  return released;
}
