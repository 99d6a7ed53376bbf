import { z } from 'zod';
import { API_KEY_REQUESTS_PER_MINUTE } from '../api-keys/api';
import { defineEvent, type EventsIn, eventGroup } from '../events/registry';
import { stream } from '../events/streams';
import { FREE_LINK_LIMIT, PRO_MONTHLY_LINK_LIMIT } from '../links/limits';
import { optionalVisibleText, visibleText } from '../text';

/**
 * Config entries: key, value, description, updatedAt, set in the
 * console's Config tab. A few keys are known to the app: their values are checked on write and take
 * effect in every process without a restart (docs/configuration.md, "Settings in the admin console");
 * any other key is kept as text.
 */

/** A key: 1-64 characters of lower-case letters, digits, `_`, `.` and `-` (it names a stream too). */
export const CONFIG_KEY_RULE = "must be 1-64 characters: lower-case letters, digits, '_', '.' or '-'";
const CONFIG_KEY_PATTERN = /^[a-z0-9_.-]{1,64}$/;

/**
 * Names an object inherits (`__proto__`, `constructor`, `prototype`, `tostring`, …), compared lower-cased:
 * admins may add keys of their own, but never one that code holding entries in a plain object would
 * mistake for, or write through to, the object's prototype.
 */
const RESERVED_CONFIG_KEYS: ReadonlySet<string> = new Set(
  [...Object.getOwnPropertyNames(Object.prototype), 'prototype'].map((name) => name.toLowerCase()),
);
const CONFIG_KEY_RESERVED = 'is a reserved name: choose another key';
const isReservedConfigKey = (key: string) => RESERVED_CONFIG_KEYS.has(key);
export const isConfigKey = (key: string) => CONFIG_KEY_PATTERN.test(key) && !isReservedConfigKey(key);
export const MAX_CONFIG_VALUE_LENGTH = 4096;
export const MAX_CONFIG_DESCRIPTION_LENGTH = 500;

export const configKeySchema = z
  .string()
  .regex(CONFIG_KEY_PATTERN, CONFIG_KEY_RULE)
  .refine((key) => !isReservedConfigKey(key), CONFIG_KEY_RESERVED);
const configValueSchema = visibleText(MAX_CONFIG_VALUE_LENGTH, 'is required');
const configDescriptionSchema = optionalVisibleText(MAX_CONFIG_DESCRIPTION_LENGTH)
  .nullish()
  .transform((description) => description ?? null);

/** `POST /api/admin/config`: key and value required; a blank description is none. */
export const createConfigEntryBody = z.object({
  key: configKeySchema,
  value: configValueSchema,
  description: configDescriptionSchema,
});
export type CreateConfigEntryBody = z.input<typeof createConfigEntryBody>;

/** `PUT /api/admin/config/{key}`: the key cannot change; sent, it must be the one in the path. */
export const updateConfigEntryBody = z.object({
  key: z.string().optional(),
  value: configValueSchema,
  description: configDescriptionSchema,
});
export type UpdateConfigEntryBody = z.input<typeof updateConfigEntryBody>;

export const configEntrySchema = z.object({
  key: z.string(),
  value: z.string(),
  description: z.string().nullable(),
  /** ISO instant of the last change. */
  updatedAt: z.string(),
});
export type ConfigEntry = z.infer<typeof configEntrySchema>;

export const configEntryListSchema = z.array(configEntrySchema);

/** What `DELETE /api/admin/config/{key}` answers. */
export const deletedConfigEntrySchema = z.object({ ok: z.literal(true), key: z.string() });

/** A key the app reads: a whole number within a range, and the value in force while none is stored. */
export interface KnownSetting {
  key: string;
  /** What it sets, for the console's hint and the docs. */
  label: string;
  min: number;
  max: number;
  default: number;
  /** The environment variable the default comes from, when an operator can set it. */
  defaultFrom?: string;
}

/** The keys the app reads, by the name the code uses (docs/configuration.md lists them). */
export const knownSettings = {
  freeLinkLimit: {
    key: 'links.free_limit',
    label: 'Links a Free account may hold',
    min: 0,
    max: 1_000_000,
    default: FREE_LINK_LIMIT,
    defaultFrom: 'FREE_LINK_LIMIT',
  },
  proMonthlyLinkLimit: {
    key: 'links.pro_monthly_limit',
    label: 'Links a Pro account may create per calendar month (UTC)',
    min: 0,
    max: 1_000_000,
    default: PRO_MONTHLY_LINK_LIMIT,
    defaultFrom: 'PRO_LINK_LIMIT',
  },
  demoLinksPerVisitor: {
    key: 'demo.links_per_visitor',
    label: 'Demo links one visitor may make per 24 hours',
    min: 0,
    max: 10_000,
    default: 5,
    defaultFrom: 'DEMO_MAX_PER_VISITOR',
  },
  apiKeyRequestsPerMinute: {
    key: 'api_keys.requests_per_minute',
    label: 'Requests one API key may make per minute',
    min: 1,
    max: 100_000,
    default: API_KEY_REQUESTS_PER_MINUTE,
  },
  premiumSlugPriceCents: {
    key: 'premium.slug_price_cents',
    label: 'Price of a premium slug, in cents',
    min: 0,
    max: 100_000_000,
    default: 2500,
  },
  maxOwnedPremiumSlugs: {
    key: 'premium.max_owned_slugs',
    label: 'Premium slugs one account may own',
    min: 0,
    max: 1_000,
    default: 3,
  },
  passwordProOnly: {
    key: 'links.password.pro_only',
    label: 'Link passwords for Pro only (1) or every plan (0)',
    min: 0,
    max: 1,
    default: 0,
  },
  expiryProOnly: {
    key: 'links.expiry.pro_only',
    label: 'Link expiry, click limits and fallback URLs for Pro only (1) or every plan (0)',
    min: 0,
    max: 1,
    default: 0,
  },
  pauseProOnly: {
    key: 'links.pause.pro_only',
    label: 'Pausing links for Pro only (1) or every plan (0)',
    min: 0,
    max: 1,
    default: 0,
  },
  tagsProOnly: {
    key: 'links.tags.pro_only',
    label: 'Link tags for Pro only (1) or every plan (0)',
    min: 0,
    max: 1,
    default: 0,
  },
  targetingProOnly: {
    key: 'links.targeting.pro_only',
    label: 'Link targeting rules (country, device, language) for Pro only (1) or every plan (0)',
    min: 0,
    max: 1,
    default: 0,
  },
  webhooksAllowPrivate: {
    key: 'webhooks.allow_private',
    label: 'Webhooks may call private and loopback addresses over http (1) or only public https ones (0)',
    min: 0,
    max: 1,
    default: 0,
  },
} as const satisfies Record<string, KnownSetting>;

/** A known setting as the Config tab lists it: set or not, the value in force and its default. */
export const knownSettingStateSchema = z.object({
  key: z.string(),
  label: z.string(),
  value: z.number(),
  default: z.number(),
  /** The environment variable the default comes from, when an operator can set it. */
  defaultFrom: z.string().nullable(),
  /** Whether a config entry sets it (else it is at its default). */
  set: z.boolean(),
});
export type KnownSettingState = z.infer<typeof knownSettingStateSchema>;
export const knownSettingStateListSchema = z.array(knownSettingStateSchema);

export type SettingName = keyof typeof knownSettings;
/** The value in force of every known setting. */
export type SettingValues = Record<SettingName, number>;

const settingNames = Object.keys(knownSettings) as SettingName[];

/** The defaults (the environment may change some: `defaultFrom`). */
export const defaultSettings = Object.fromEntries(
  settingNames.map((name) => [name, knownSettings[name].default]),
) as SettingValues;

/** The known setting a key names, if any. */
export function settingOfKey(key: string): { name: SettingName; setting: KnownSetting } | undefined {
  const name = settingNames.find((candidate) => knownSettings[candidate].key === key);
  return name ? { name, setting: knownSettings[name] } : undefined;
}

/** What a known key takes, said the same way in the console's hint and in a refusal. */
export const expectedValue = (setting: KnownSetting) =>
  `a whole number from ${setting.min} to ${setting.max}`;

/**
 * A known key's value as stored (its canonical form: `"05"` is `"5"`), or the problem with it; the value
 * is never repeated in the problem.
 */
export function checkSettingValue(
  setting: KnownSetting,
  value: string,
): { ok: true; value: number; text: string } | { ok: false; problem: string } {
  const trimmed = value.trim();
  const number = /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < setting.min || number > setting.max) {
    return { ok: false, problem: `${setting.key} must be ${expectedValue(setting)}` };
  }
  return { ok: true, value: number, text: String(number) };
}

/** A setting's stream `config-{key}`: one per key, so its expected revision makes a second create of the same key a 409. */
export const configStream = stream('config');

/** Events of a config entry's stream `config-{key}`; every one carries the acting admin in its metadata. */
export const configEvents = eventGroup(
  defineEvent({
    type: 'ConfigEntryCreated',
    version: 1,
    schema: z.object({ key: z.string(), value: z.string(), description: z.string().nullable() }),
  }),
  /** A new value or description; `previousValue` is what it replaced (for the audit history). */
  defineEvent({
    type: 'ConfigEntryUpdated',
    version: 1,
    schema: z.object({
      key: z.string(),
      value: z.string(),
      description: z.string().nullable(),
      previousValue: z.string(),
    }),
  }),
  /** Removed; a known key is back at its default. */
  defineEvent({
    type: 'ConfigEntryDeleted',
    version: 1,
    schema: z.object({ key: z.string(), previousValue: z.string() }),
  }),
);
export type ConfigEvent = EventsIn<typeof configEvents>;
