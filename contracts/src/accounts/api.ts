import { z } from 'zod';
import { billingSchema, linkAllowanceSchema } from '../billing/api';
import { optionalVisibleText } from '../text';

const name = optionalVisibleText(100);
const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be an e-mail address'));
const password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(1024, 'must be at most 1024 characters');

export const registerBody = z
  .object({
    email,
    password,
    firstName: name.optional(),
    lastName: name.optional(),
  })
  .meta({ id: 'RegisterBody' });
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z
  .object({
    email: z.string().max(254, 'must be at most 254 characters'),
    password: z.string().max(1024, 'must be at most 1024 characters'),
  })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.infer<typeof loginBody>;

/** Only these fields are ever applied; anything else in the body (isAdmin, email…) is ignored. */
export const profileBody = z
  .object({
    firstName: name.nullable().optional(),
    lastName: name.nullable().optional(),
  })
  .meta({ id: 'ProfileBody' });
export type ProfileBody = z.infer<typeof profileBody>;

export const passwordResetBody = z
  .object({ email: z.string().max(254, 'must be at most 254 characters') })
  .meta({ id: 'PasswordResetBody' });
export const passwordResetConfirmBody = z
  .object({
    token: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
    password,
  })
  .meta({ id: 'PasswordResetConfirmBody' });

export const subscriptionStatuses = ['active', 'inactive', 'suspended'] as const;

/** The signed-in user, as GET /api/auth/user answers. */
export const userSchema = z
  .object({
    id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    isAdmin: z.boolean(),
    subscriptionStatus: z.enum(subscriptionStatuses),
    subscriptionPlan: z.enum(['monthly', 'yearly']).nullable(),
    linksCreatedThisMonth: z.number().int(),
    createdAt: z.string(),
    /** Beyond the user's basic fields: whether the address is confirmed (through the mailed link, or a provider). */
    emailVerified: z.boolean(),
    /** Added: the subscription's period, cancellation and payment state ("Manage billing", renewal date). */
    billing: billingSchema,
    /** Added: the one allowance rule's figures, the same on every screen and in the create refusal. */
    linkAllowance: linkAllowanceSchema,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

/** The plain acknowledgement: sign-out, a mail on its way, a password changed. */
export const okSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });
export type Ok = z.infer<typeof okSchema>;

/** POST /api/auth/logout-all: how many sessions ended (this one included). */
export const sessionsEndedSchema = z
  .object({ ok: z.literal(true), sessionsEnded: z.number().int() })
  .meta({ id: 'SessionsEnded' });
