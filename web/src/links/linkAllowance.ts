import type { User } from '@sniplink/contracts';
import { isPro } from '../accounts/plan';

/** Free: 5 links held in total; Pro: 500 links a month (spec, section 9). */
export const FREE_LINK_LIMIT = 5;
export const PRO_MONTHLY_LINK_LIMIT = 500;

type AllowanceUser = Pick<User, 'subscriptionStatus' | 'linksCreatedThisMonth'>;

export const linkLimitOf = (user: Pick<User, 'subscriptionStatus'>): number =>
  isPro(user) ? PRO_MONTHLY_LINK_LIMIT : FREE_LINK_LIMIT;

/** The count the limit is measured against: links made this month on Pro, links held on Free. */
export const usedLinksOf = (user: AllowanceUser, totalLinks: number): number =>
  isPro(user) ? user.linksCreatedThisMonth : totalLinks;

/** Plan limit minus the used count, never below zero. */
export const linksRemainingFor = (user: AllowanceUser, totalLinks: number): number =>
  Math.max(0, linkLimitOf(user) - usedLinksOf(user, totalLinks));
