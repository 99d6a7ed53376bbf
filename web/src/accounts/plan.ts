import type { User } from '@sniplink/contracts';

/** Pro when the subscription is active. */
export const isPro = (user: Pick<User, 'subscriptionStatus'>): boolean =>
  user.subscriptionStatus === 'active';

export const planLabelOf = (user: Pick<User, 'subscriptionStatus'>): 'Pro' | 'Free' =>
  isPro(user) ? 'Pro' : 'Free';

/**
 * The account's status in plain words: "Free plan", "Pro until 12 March 2027" (cancelled at the period's
 * end), "Pro, renews on 12 March 2027", "Pro plan" (granted, no paid period), "Suspended".
 */
export function planStatusText(
  user: Pick<User, 'subscriptionStatus' | 'billing'>,
  formatDate: (iso: string) => string,
): string {
  if (user.subscriptionStatus === 'suspended') return 'Suspended: please contact support';
  if (!isPro(user)) return 'Free plan';
  const { periodEnd, cancelAtPeriodEnd } = user.billing;
  if (!periodEnd) return 'Pro plan';
  return cancelAtPeriodEnd ? `Pro until ${formatDate(periodEnd)}` : `Pro, renews on ${formatDate(periodEnd)}`;
}
