import { useDebouncedValue } from '@mantine/hooks';
import {
  CUSTOM_CODE_RULE,
  customCodePattern,
  PREMIUM_OWNER_CODE_RULE,
  premiumOwnerCodePattern,
} from '@sniplink/contracts/short-codes';
import { useQuery } from '@tanstack/react-query';
import { myPremiumSlugsQueryOptions } from '../marketplace/api';
import { shortCodeAvailabilityQueryOptions } from './api';

export type ShortCodeCheck =
  | { state: 'unchanged' }
  | { state: 'checking' }
  | { state: 'valid'; message: string }
  | { state: 'invalid'; message: string };

/** Waits this long after the last keystroke before asking the server. */
export const availabilityCheckDelayMs = 500;

/** The rule a user's custom codes are held to, and its words for the field's hint and errors. */
export interface ShortCodeRule {
  text: string;
  fits(code: string): boolean;
}

const everyones: ShortCodeRule = { text: CUSTOM_CODE_RULE, fits: (code) => customCodePattern.test(code) };
const premiumOwners: ShortCodeRule = {
  text: PREMIUM_OWNER_CODE_RULE,
  fits: (code) => premiumOwnerCodePattern.test(code),
};

/**
 * The signed-in user's rule: 1-20 characters once they own a premium slug (the dashboard loads their
 * slugs), else 3-20. The server holds every code to the same rule.
 */
export function useShortCodeRule(): ShortCodeRule {
  const owned = useQuery(myPremiumSlugsQueryOptions());
  return (owned.data?.length ?? 0) > 0 ? premiumOwners : everyones;
}

/**
 * Whether a short code typed in the edit dialog may be saved. An unchanged code is not checked; a
 * malformed one is invalid at once; otherwise the server is asked 500 ms after typing stops.
 */
export function useShortCodeCheck(code: string, currentCode: string): ShortCodeCheck {
  const rule = useShortCodeRule();
  const [settledCode] = useDebouncedValue(code, availabilityCheckDelayMs);
  const changed = code !== currentCode;
  const wellFormed = rule.fits(code);
  const settled = settledCode === code;
  const availability = useQuery({
    ...shortCodeAvailabilityQueryOptions(settledCode),
    enabled: changed && wellFormed && settled,
  });

  if (!changed) return { state: 'unchanged' };
  if (!wellFormed) return { state: 'invalid', message: rule.text };
  if (!settled || availability.isFetching) return { state: 'checking' };
  if (availability.isError) return { state: 'invalid', message: 'Unable to check availability' };
  if (!availability.data) return { state: 'checking' };
  const { available, message } = availability.data;
  return available ? { state: 'valid', message } : { state: 'invalid', message };
}
