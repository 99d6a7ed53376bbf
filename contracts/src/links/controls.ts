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
export type ProOnlyControl = 'password' | 'expiry' | 'pause' | 'tags';

const CONTROL_NAMES: Record<ProOnlyControl, string> = {
  password: 'Password-protected links are',
  expiry: 'Expiry dates and click limits are',
  pause: 'Pausing links is',
  tags: 'Tags are',
};
const OBJECT: Record<ProOnlyControl, string> = {
  password: 'them',
  expiry: 'them',
  pause: 'it',
  tags: 'them',
};

/** The refusal of a Pro-only control to a Free account: the link limit's answer (403 SUBSCRIPTION_REQUIRED), in its words. */
export function proOnlyControlMessage(control: ProOnlyControl): string {
  return `${CONTROL_NAMES[control]} available on Pro accounts. Upgrade to Pro to use ${OBJECT[control]}.`;
}
