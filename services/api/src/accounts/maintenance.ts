import { emailClaimStream, userStream } from '@sniplink/contracts';
import { emailClaimDecider } from '@sniplink/domain';
import {
  type Clock,
  commandHandler,
  type Database,
  type EventStore,
  type Keyring,
  type Logger,
} from '@sniplink/platform';
import { erasedUsersStillKeyed, streamsEndingWith } from '@sniplink/projections';
import type { Kysely } from 'kysely';

export interface SweeperDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  log: Logger;
  /** How old an orphaned claim is, and the time its release is stamped with. */
  clock: Clock;
}

/** Account housekeeping, run now and then by a process that runs the projections. */
export async function runAccountMaintenance(deps: SweeperDeps & { keyring: Keyring }): Promise<void> {
  await releaseOrphanedEmailClaims(deps);
  await shredKeysOfErasedUsers(deps);
}

/**
 * An erasure deletes the user's key once the read model shows the user erased; if it was interrupted
 * after `UserErased`, the key is still there. The read model's `erased` flag says it is safe to shred.
 */
export async function shredKeysOfErasedUsers(deps: SweeperDeps & { keyring: Keyring }): Promise<number> {
  const userIds = await erasedUsersStillKeyed(deps.db, 1_000);
  for (const userId of userIds) await deps.keyring.shred(userId);
  if (userIds.length > 0)
    deps.log.warn(
      { shredded: userIds.length },
      'deleted the keys of erased users left by interrupted erasures',
    );
  return userIds.length;
}

/**
 * A registration claims the address first and records the account second; a crash in between leaves
 * an address held by an account that never came to be, and nobody could sign up with it again. This
 * finds claims older than `graceMs` whose account stream is empty and releases them.
 */
export async function releaseOrphanedEmailClaims(deps: SweeperDeps, graceMs = 10 * 60_000): Promise<number> {
  const candidates = await streamsEndingWith(deps.db, {
    category: emailClaimStream.category,
    lastEventType: 'EmailClaimed',
    before: new Date(deps.clock.now().getTime() - graceMs),
    limit: 1_000,
  });
  const claims = commandHandler(deps, { decider: emailClaimDecider, stream: emailClaimStream });
  let released = 0;
  for (const streamId of candidates) {
    const emailHash = emailClaimStream.idOf(streamId);
    const { holder } = await claims.load(emailHash);
    if (!holder || (await deps.eventStore.readStream(userStream.id(holder), { maxCount: 1 })).length > 0)
      continue;
    await claims.handle(emailHash, { type: 'ReleaseEmail', userId: holder });
    released += 1;
  }
  if (released > 0) deps.log.warn({ released }, 'released e-mail claims left by interrupted registrations');
  return released;
}
