/**
 * The moderation lists' values, without zod: the console's address (its places) reads them in the bundle
 * every page loads, where a schema module would only add weight.
 */
export const wordCategories = ['offensive', 'spam', 'inappropriate'] as const;
export type WordCategory = (typeof wordCategories)[number];
export const wordSeverities = ['low', 'medium', 'high', 'critical'] as const;
export type WordSeverity = (typeof wordSeverities)[number];
export const brandCategories = [
  'tech',
  'media',
  'retail',
  'food',
  'automotive',
  'finance',
  'government',
] as const;
export type BrandCategory = (typeof brandCategories)[number];
/** An approval's states: pending until an admin approves or rejects the code. */
export const approvalStatuses = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

/** The reason the console's Reject button sends. */
export const BRAND_REJECTION_REASON = 'Brand protection violation';

/** A word or a brand is compared as a short code is: at most a code's length of letters, after a few spaces. */
export const MODERATION_ENTRY_MAX = 40;
