import { z } from 'zod';
import type { EventUnion } from './event-union';

/**
 * Personal data in events is ciphertext under the user's own key (crypto-shredding): once the key is
 * deleted the value cannot be read back. Format: `enc:v1:<base64url iv|ciphertext|tag>`.
 */
export const encrypted = z.string().startsWith('enc:');
export type Encrypted = z.infer<typeof encrypted>;

export const planIds = ['monthly', 'yearly'] as const;
export const planId = z.enum(planIds);
export type PlanId = z.infer<typeof planId>;

/** Events of a user's stream `user-{userId}`. Version 1 of each; a new shape is a new version. */
export const userEventSchemas = {
  UserRegistered: z.object({
    userId: z.uuid(),
    email: encrypted,
    firstName: encrypted.nullable(),
    lastName: encrypted.nullable(),
    profileImageUrl: encrypted.nullable(),
    /** HMAC of the normalised e-mail: names the claim stream without revealing the address. */
    emailHash: z.string(),
    via: z.enum(['password', 'oidc']),
  }),
  UserProfileUpdated: z.object({ firstName: encrypted.nullable(), lastName: encrypted.nullable() }),
  UserPasswordChanged: z.object({ via: z.enum(['reset', 'change']) }),
  UserIdentityLinked: z.object({ issuer: z.string(), subjectHash: z.string() }),
  /**
   * The user opened the link mailed to the address named by `emailHash`. An account registered through
   * an identity provider (`via: 'oidc'`) had its address verified by the provider and needs none.
   */
  UserEmailVerified: z.object({ emailHash: z.string() }),
  UserSuspended: z.object({ reason: z.string().nullable() }),
  UserUnsuspended: z.object({}),
  SubscriptionStarted: z.object({
    plan: planId,
    provider: z.enum(['operator', 'local', 'stripe']),
    reference: z.string().nullable(),
  }),
  SubscriptionEnded: z.object({ reason: z.enum(['canceled', 'operator', 'expired']) }),
  /** Drops the user's personal data from every read model; the key is deleted once this is projected. */
  UserErased: z.object({}),
} as const;

/** Events of the e-mail claim stream `email-{emailHash}`: at most one account holds an address. */
export const emailClaimEventSchemas = {
  EmailClaimed: z.object({ userId: z.uuid() }),
  EmailReleased: z.object({ userId: z.uuid() }),
} as const;

export type UserEvent = EventUnion<typeof userEventSchemas>;
export type EmailClaimEvent = EventUnion<typeof emailClaimEventSchemas>;
export type UserEventType = UserEvent['type'];
