import type { Billing, User } from '@sniplink/contracts';
import { isPro } from '../accounts/plan';

/** The plan as the profile names it: Free, Pro Monthly or Pro Yearly ("Pro" when no plan is recorded). */
export function planNameOf(user: Pick<User, 'subscriptionStatus' | 'subscriptionPlan'>): string {
  if (!isPro(user)) return 'Free';
  if (user.subscriptionPlan === 'monthly') return 'Pro Monthly';
  if (user.subscriptionPlan === 'yearly') return 'Pro Yearly';
  return 'Pro';
}

/** A period's end as the reader's locale writes a date ("March 5, 2027"). */
export const longDate = (iso: string): string =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });

/** "Renews on …", or "Ends on …" once cancelled at the period's end; null when no period is known. */
export function periodLine(
  billing: Pick<Billing, 'periodEnd' | 'cancelAtPeriodEnd'>,
  formatDate: (iso: string) => string = longDate,
): string | null {
  if (!billing.periodEnd) return null;
  return `${billing.cancelAtPeriodEnd ? 'Ends on' : 'Renews on'} ${formatDate(billing.periodEnd)}`;
}
