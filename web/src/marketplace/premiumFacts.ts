import type { PremiumPurchase } from '@sniplink/contracts';
import type { PremiumTier } from '@sniplink/contracts/premium-slugs';

export const tierLabels: Record<PremiumTier, string> = {
  standard: 'Standard',
  premium: 'Premium',
  ultra: 'Ultra',
};

/** Cents as the marketplace shows them: 2500 → "$25.00". */
export const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * What the success page says of a purchase: its title, message, status and amount. Refunded, the buyer
 * learns the slug is not theirs and that their money was given back.
 */
export function purchaseShown(purchase: Pick<PremiumPurchase, 'status' | 'slug' | 'amount'>): {
  title: string;
  message: string;
  status: string;
  amount: string;
} {
  const { slug, amount } = purchase;
  switch (purchase.status) {
    case 'complete':
      return {
        title: 'Purchase Successful!',
        message: `The premium slug "${slug}" is yours.`,
        status: 'Complete',
        amount: dollars(amount),
      };
    case 'refunded':
      return {
        title: 'Payment Refunded',
        message: `Your payment for "${slug}" was refunded in full, so the premium slug is not yours. Browse the marketplace for another.`,
        status: 'Refunded',
        amount: dollars(amount),
      };
    case 'processing':
      return {
        title: 'Payment Processing',
        message: 'Your payment is being confirmed; this page shows it once it is.',
        status: 'Processing',
        amount: '—',
      };
    default: {
      const unknown: never = purchase.status;
      return unknown;
    }
  }
}

/** What an admin typed in dollars, in cents (dollars x 100, rounded); NaN when it is not a number. */
export const centsOf = (dollarsTyped: string | number): number => {
  const value = typeof dollarsTyped === 'number' ? dollarsTyped : Number(dollarsTyped.trim() || Number.NaN);
  return Math.round(value * 100);
};

/** Bulk add: one slug per line, trimmed, blank lines dropped. */
export const slugsOfLines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The marketplace's purchase button for a viewer. */
export type PurchaseAction =
  | { kind: 'login'; label: 'Login to Purchase' }
  | { kind: 'upgrade'; label: 'Upgrade to Pro' }
  | { kind: 'limit'; label: string }
  | { kind: 'purchase'; label: 'Purchase' };

export function purchaseActionFor(
  viewer: { signedIn: false } | { signedIn: true; pro: boolean; owned: number },
  maxOwned = 3,
): PurchaseAction {
  if (!viewer.signedIn) return { kind: 'login', label: 'Login to Purchase' };
  if (!viewer.pro) return { kind: 'upgrade', label: 'Upgrade to Pro' };
  if (viewer.owned >= maxOwned)
    return { kind: 'limit', label: `Limit Reached (${viewer.owned}/${maxOwned})` };
  return { kind: 'purchase', label: 'Purchase' };
}

/** The query the provider returns with: `/premium/success?slug={slug}&payment_intent={id}`. */
export interface PremiumSuccessSearch {
  slug?: string;
  payment_intent?: string;
}

export const premiumSuccessSearch = (search: Record<string, unknown>): PremiumSuccessSearch => ({
  ...(typeof search.slug === 'string' ? { slug: search.slug } : {}),
  ...(typeof search.payment_intent === 'string' ? { payment_intent: search.payment_intent } : {}),
});
