import type { Link } from '@sniplink/contracts';
import { readableDate } from '../components/dates';

type LinkControls = Pick<
  Link,
  'status' | 'paused' | 'expiresAt' | 'maxClicks' | 'clicksUsed' | 'hasPassword'
>;

/** One thing a link card says about the link's controls, in words, with its kind for the icon and colour. */
export interface LinkNote {
  kind: 'paused' | 'expired' | 'expires' | 'clicks' | 'password';
  text: string;
}

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/**
 * "in 20 minutes", "in 5 hours", "in 3 days" (the reader's language); beyond a month the date itself
 * ("on 12 March 2027"), which reads better than "in 97 days".
 */
export function expiresIn(expiresAt: Date, now: Date, locale?: string): string {
  const left = expiresAt.getTime() - now.getTime();
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  if (left < hourMs) return relative.format(Math.max(1, Math.ceil(left / minuteMs)), 'minute');
  if (left < 2 * dayMs) return relative.format(Math.round(left / hourMs), 'hour');
  if (left <= 31 * dayMs) return relative.format(Math.round(left / dayMs), 'day');
  return `on ${readableDate(expiresAt, { now, ...(locale ? { locale } : {}) })}`;
}

const clicksLeft = (maxClicks: number, used: number): string => {
  const left = Math.max(0, maxClicks - used);
  return `${left} of ${maxClicks} ${maxClicks === 1 ? 'click' : 'clicks'} left`;
};

/**
 * What a link card says about the link's controls, most telling first: "Paused" or "Expired" (a paused link
 * says nothing of its expiry until it is resumed), "Expires in 3 days", "3 of 10 clicks left", "Password".
 * The clock comes in, so the words are the same for a test as for a reader at that moment.
 */
export function linkNotes(link: LinkControls, now: Date, locale?: string): LinkNote[] {
  const notes: LinkNote[] = [];
  const expiresAt = link.expiresAt === null ? undefined : new Date(link.expiresAt);
  const pastExpiry = expiresAt !== undefined && expiresAt.getTime() <= now.getTime();
  const usedUp = link.maxClicks !== null && (link.clicksUsed ?? 0) >= link.maxClicks;
  if (link.paused) notes.push({ kind: 'paused', text: 'Paused' });
  else if (link.status === 'expired' || pastExpiry || usedUp)
    notes.push({ kind: 'expired', text: 'Expired' });
  else {
    if (expiresAt) notes.push({ kind: 'expires', text: `Expires ${expiresIn(expiresAt, now, locale)}` });
    if (link.maxClicks !== null)
      notes.push({ kind: 'clicks', text: clicksLeft(link.maxClicks, link.clicksUsed ?? 0) });
  }
  if (link.hasPassword) notes.push({ kind: 'password', text: 'Password' });
  return notes;
}
