/**
 * The rules of a link's controls (password, expiry, click limit, pause, tags), without zod: the dashboard
 * imports this file (`@sniplink/contracts/links/controls`) to check a form before sending it, and the server
 * refuses with the same words.
 */

export const MAX_TAGS_PER_LINK = 10;
export const TAG_RULE = '1-32 characters: letters, digits, hyphens and underscores';
/** A tag as stored: trimmed and lower-cased first, so `Sales ` and `sales` are one tag. */
export const tagPattern = /^[a-z0-9_-]{1,32}$/;
export const TOO_MANY_TAGS = `must have at most ${MAX_TAGS_PER_LINK} tags`;

export const MAX_LINK_PASSWORD_LENGTH = 128;
export const LINK_PASSWORD_RULE = `must be 1-${MAX_LINK_PASSWORD_LENGTH} characters and not blank`;

/** The largest click limit (a billion: beyond it, no limit is the same thing). */
export const MAX_CLICK_LIMIT = 1_000_000_000;

/** A tag as the server stores it: trimmed and lower-cased. */
export const normalizeTag = (tag: string): string => tag.trim().toLowerCase();

/**
 * The tags as stored: each normalized, repeats dropped, in the order given; or the problem with them (the
 * value is never repeated in the problem).
 */
export function checkTags(
  tags: readonly string[],
): { ok: true; tags: string[] } | { ok: false; problem: string } {
  const normalized = [...new Set(tags.map(normalizeTag))];
  if (normalized.some((tag) => !tagPattern.test(tag)))
    return { ok: false, problem: `each tag must be ${TAG_RULE}` };
  if (normalized.length > MAX_TAGS_PER_LINK) return { ok: false, problem: TOO_MANY_TAGS };
  return { ok: true, tags: normalized };
}

/**
 * Where a link stands for its visitors: `active` redirects; `paused` shows the paused page; `expired` (past
 * its expiry time, or its click limit used up) sends visitors to its fallback URL or the expired page.
 */
export const LINK_STATUSES = ['active', 'paused', 'expired'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** The controls an admin may keep for Pro accounts (each with its Config key, `links.{name}.pro_only`). */
export type ProOnlyControl = 'password' | 'expiry' | 'pause' | 'tags' | 'targeting';

const CONTROL_NAMES: Record<ProOnlyControl, string> = {
  password: 'Password-protected links are',
  expiry: 'Expiry dates and click limits are',
  pause: 'Pausing links is',
  tags: 'Tags are',
  targeting: 'Targeting rules are',
};
const OBJECT: Record<ProOnlyControl, string> = {
  password: 'them',
  expiry: 'them',
  pause: 'it',
  tags: 'them',
  targeting: 'them',
};

/** The refusal of a Pro-only control to a Free account: the link limit's answer (403 SUBSCRIPTION_REQUIRED), in its words. */
export function proOnlyControlMessage(control: ProOnlyControl): string {
  return `${CONTROL_NAMES[control]} available on Pro accounts. Upgrade to Pro to use ${OBJECT[control]}.`;
}

/** Targeting rules a link may carry: the first whose conditions all hold sends the visitor to its URL. */
export const MAX_TARGETING_RULES = 20;
export const TOO_MANY_RULES = `must have at most ${MAX_TARGETING_RULES} rules`;

/**
 * The devices a rule may name, from the user agent as analytics classifies it: `ios` (iPhone, iPad,
 * iPod), `android` (any Android phone or tablet), `mobile` (every phone, iOS and Android ones too, but
 * no tablet), `desktop` (everything else analytics counts as desktop).
 */
export const TARGETING_DEVICES = ['ios', 'android', 'desktop', 'mobile'] as const;
export type TargetingDevice = (typeof TARGETING_DEVICES)[number];
export const TARGETING_CONDITIONS = ['country', 'device', 'language'] as const;
export type TargetingCondition = (typeof TARGETING_CONDITIONS)[number];

/** The conditions of a rule: each one given must hold (any of its values); at least one is given. */
export type TargetingWhen = {
  /** ISO 3166-1 alpha-2 codes, stored upper-case. */
  country?: string[];
  device?: TargetingDevice[];
  /** Primary language subtags (`en`, `pt`), stored lower-case; `en` matches `en-GB`. */
  language?: string[];
};

export interface TargetingRule {
  when: TargetingWhen;
  url: string;
}

/** Values one condition may list. */
export const MAX_CONDITION_VALUES = 50;
const countryPattern = /^[A-Z]{2}$/;
const languagePattern = /^[a-z]{2,3}$/;
const DEVICES: ReadonlySet<string> = new Set(TARGETING_DEVICES);

type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * A rule's conditions as stored: countries upper-cased, languages lower-cased, devices as given, repeats
 * dropped, empty lists left out; or the problem with them.
 */
export function checkTargetingWhen(when: Readonly<Record<string, unknown>>): Checked<TargetingWhen> {
  const stored: TargetingWhen = {};
  for (const name of Object.keys(when)) {
    if (!(TARGETING_CONDITIONS as readonly string[]).includes(name))
      return { ok: false, problem: `${name} is not a condition: use country, device or language` };
  }
  const country = valuesOf(
    when.country,
    'country',
    (value) => value.trim().toUpperCase(),
    countryPattern.test.bind(countryPattern),
    'each country must be a two-letter ISO 3166 code',
  );
  if (!country.ok) return country;
  const device = valuesOf(
    when.device,
    'device',
    (value) => value.trim().toLowerCase(),
    (value) => DEVICES.has(value),
    `each device must be one of ${TARGETING_DEVICES.join(', ')}`,
  );
  if (!device.ok) return device;
  const language = valuesOf(
    when.language,
    'language',
    (value) => value.trim().toLowerCase(),
    languagePattern.test.bind(languagePattern),
    'each language must be a two- or three-letter language code such as en',
  );
  if (!language.ok) return language;
  if (country.value.length > 0) stored.country = country.value;
  if (device.value.length > 0) stored.device = device.value as TargetingDevice[];
  if (language.value.length > 0) stored.language = language.value;
  if (Object.keys(stored).length === 0)
    return { ok: false, problem: 'must have at least one condition (country, device or language)' };
  return { ok: true, value: stored };
}

function valuesOf(
  given: unknown,
  name: string,
  normalize: (value: string) => string,
  valid: (value: string) => boolean,
  rule: string,
): Checked<string[]> {
  if (given === undefined || given === null) return { ok: true, value: [] };
  if (!Array.isArray(given) || given.some((value) => typeof value !== 'string'))
    return { ok: false, problem: `${name} must be a list of strings` };
  const values = [...new Set((given as string[]).map(normalize))];
  if (values.some((value) => !valid(value))) return { ok: false, problem: rule };
  if (values.length > MAX_CONDITION_VALUES)
    return { ok: false, problem: `${name} must have at most ${MAX_CONDITION_VALUES} values` };
  return { ok: true, value: values };
}
