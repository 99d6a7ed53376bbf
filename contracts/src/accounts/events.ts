import { z } from 'zod';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';

/**
 * Personal data in events is ciphertext under the user's own key (crypto-shredding): once the key is
 * deleted the value cannot be read back. Format: `enc:v1:<base64url iv|ciphertext|tag>`.
 */
export const encrypted = z.string().startsWith('enc:');
export type Encrypted = z.infer<typeof encrypted>;

export const planIds = ['monthly', 'yearly'] as const;
export const planId = z.enum(planIds);
export type PlanId = z.infer<typeof planId>;

/** A user's stream `user-{userId}`. */
export const userStream = stream('user');

/** Events of a user's stream `user-{userId}`. */
export const userEvents = eventGroup(
  defineEvent({
    type: 'UserRegistered',
    version: 1,
    schema: z.object({
      userId: z.uuid(),
      email: encrypted,
      firstName: encrypted.nullable(),
      lastName: encrypted.nullable(),
      profileImageUrl: encrypted.nullable(),
      /** HMAC of the normalised e-mail: names the claim stream without revealing the address. */
      emailHash: z.string(),
      via: z.enum(['password', 'oidc']),
    }),
  }),
  defineEvent({
    type: 'UserProfileUpdated',
    version: 1,
    schema: z.object({ firstName: encrypted.nullable(), lastName: encrypted.nullable() }),
  }),
  defineEvent({
    type: 'UserPasswordChanged',
    version: 1,
    schema: z.object({ via: z.enum(['reset', 'change']) }),
  }),
  defineEvent({
    type: 'UserIdentityLinked',
    version: 1,
    schema: z.object({ issuer: z.string(), subjectHash: z.string() }),
  }),
  /**
   * The user opened the link mailed to the address named by `emailHash`. An account registered through
   * an identity provider (`via: 'oidc'`) had its address verified by the provider and needs none.
   */
  defineEvent({ type: 'UserEmailVerified', version: 1, schema: z.object({ emailHash: z.string() }) }),
  defineEvent({ type: 'UserSuspended', version: 1, schema: z.object({ reason: z.string().nullable() }) }),
  defineEvent({ type: 'UserUnsuspended', version: 1, schema: z.object({}) }),
  defineEvent({
    type: 'SubscriptionStarted',
    version: 1,
    schema: z.object({
      plan: planId,
      provider: z.enum(['operator', 'local', 'stripe']),
      reference: z.string().nullable(),
    }),
  }),
  defineEvent({
    type: 'SubscriptionEnded',
    version: 1,
    schema: z.object({ reason: z.enum(['canceled', 'operator', 'expired']) }),
  }),
  /** Drops the user's personal data from every read model; the key is deleted once this is projected. */
  defineEvent({ type: 'UserErased', version: 1, schema: z.object({}) }),
);

/** The e-mail claim stream `email-{emailHash}`. */
export const emailClaimStream = stream('email');

/** Events of the e-mail claim stream `email-{emailHash}`: at most one account holds an address. */
export const emailClaimEvents = eventGroup(
  defineEvent({ type: 'EmailClaimed', version: 1, schema: z.object({ userId: z.uuid() }) }),
  defineEvent({ type: 'EmailReleased', version: 1, schema: z.object({ userId: z.uuid() }) }),
);

export type UserEvent = EventsIn<typeof userEvents>;
export type EmailClaimEvent = EventsIn<typeof emailClaimEvents>;
export type UserEventType = UserEvent['type'];
