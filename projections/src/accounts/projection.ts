import {
  type AdminFlagEvent,
  adminFlagEvents,
  type LinkQuotaEvent,
  linkQuotaEvents,
  type UserEvent,
  userEvents,
  userStream,
} from '@sniplink/contracts';
import type { Keyring, ReadModel, RecordedEvent } from '@sniplink/platform';
import { sql, type Transaction, type UpdateObject } from 'kysely';
import { eachInOrder, type Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

const userStreamEvents = userEvents.with(linkQuotaEvents).with(adminFlagEvents);

/**
 * The users read model: one row per account with its personal data decrypted for the app's queries.
 * After `UserErased` (or on a rebuild once the key is gone) the row keeps no personal data.
 * Idempotent: an event applies only when its revision is past the row's `last_revision`.
 */
/** The users read model as its readers name it (the projection needs the keyring to be built). */
export const usersReadModel: ReadModel = { name: 'users' };

export function usersProjection(keyring: Keyring): Projection {
  return {
    name: usersReadModel.name,
    // 3: email_verified (UserEmailVerified; registrations through a provider count as verified).
    // 4: is_admin (AdminGranted / AdminRevoked).
    version: 4,
    handles: userStreamEvents.types,
    tables: ['rm_users'],
    apply: eachInOrder((trx, event) => applyUserEvent(trx, keyring, event)),
  };
}

async function applyUserEvent(
  trx: Transaction<ReadModelDatabase>,
  keyring: Keyring,
  recorded: RecordedEvent,
): Promise<void> {
  const userId = userStream.idOf(recorded);
  const revision = recorded.revision.toString();
  const event = userStreamEvents.narrow(recorded);
  const at = recorded.occurredAt;
  if (event.type === 'UserRegistered') {
    const email = await keyring.decrypt(userId, event.data.email);
    await trx
      .insertInto('rm_users')
      .values({
        user_id: userId,
        email,
        email_normalized: email?.trim().toLowerCase() ?? null,
        first_name: await keyring.decrypt(userId, event.data.firstName),
        last_name: await keyring.decrypt(userId, event.data.lastName),
        profile_image_url: await keyring.decrypt(userId, event.data.profileImageUrl),
        email_verified: event.data.via === 'oidc',
        created_at: at,
        updated_at: at,
        last_revision: revision,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return;
  }
  const changes = await changesFor(event, userId, keyring);
  await trx
    .updateTable('rm_users')
    .set({ ...changes, updated_at: at, last_revision: revision })
    .where('user_id', '=', userId)
    .where('last_revision', '<', revision)
    .execute();
}

type UserChanges = UpdateObject<ReadModelDatabase, 'rm_users', 'rm_users'>;

async function changesFor(
  event: UserEvent | LinkQuotaEvent | AdminFlagEvent,
  userId: string,
  keyring: Keyring,
): Promise<UserChanges> {
  switch (event.type) {
    case 'UserProfileUpdated':
      return {
        first_name: await keyring.decrypt(userId, event.data.firstName),
        last_name: await keyring.decrypt(userId, event.data.lastName),
      };
    case 'SubscriptionStarted':
      return { subscription_status: 'active', subscription_plan: event.data.plan };
    case 'SubscriptionEnded':
      return { subscription_status: 'inactive', subscription_plan: null };
    case 'UserEmailVerified':
      return { email_verified: true };
    case 'UserSuspended':
      return { suspended: true };
    case 'UserUnsuspended':
      return { suspended: false };
    case 'AdminGranted':
      return { is_admin: true };
    case 'AdminRevoked':
      return { is_admin: false };
    case 'UserErased':
      return {
        email: null,
        email_normalized: null,
        first_name: null,
        last_name: null,
        profile_image_url: null,
        erased: true,
        is_admin: false,
        email_verified: false,
        subscription_status: 'inactive',
        subscription_plan: null,
      };
    case 'LinkSlotTaken': {
      const month = event.data.month;
      return {
        links_created_this_month: sql<number>`CASE WHEN links_month = ${month} THEN links_created_this_month + 1 ELSE 1 END`,
        links_month: month,
      };
    }
    case 'LinkSlotReleased': {
      if (event.data.reason !== 'abandoned') return {};
      const month = event.data.month;
      return {
        links_created_this_month: sql<number>`CASE WHEN links_month = ${month} THEN greatest(0, links_created_this_month - 1) ELSE links_created_this_month END`,
      };
    }
    case 'UserRegistered':
    case 'UserPasswordChanged':
    case 'UserIdentityLinked':
      return {};
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
