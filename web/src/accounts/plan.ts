import type { User } from '@sniplink/contracts';

/** Pro when the subscription is active. */
export const isPro = (user: Pick<User, 'subscriptionStatus'>): boolean =>
  user.subscriptionStatus === 'active';

export const planLabelOf = (user: Pick<User, 'subscriptionStatus'>): 'Pro' | 'Free' =>
  isPro(user) ? 'Pro' : 'Free';
