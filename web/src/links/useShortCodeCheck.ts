import { useDebouncedValue } from '@mantine/hooks';
import { CUSTOM_CODE_RULE, customCodePattern } from '@sniplink/contracts/short-codes';
import { useQuery } from '@tanstack/react-query';
import { shortCodeAvailabilityQueryOptions } from './api';

export type ShortCodeCheck =
  | { state: 'unchanged' }
  | { state: 'checking' }
  | { state: 'valid'; message: string }
  | { state: 'invalid'; message: string };

/** Waits this long after the last keystroke before asking the server. */
export const availabilityCheckDelayMs = 500;

export const isWellFormedShortCode = (code: string): boolean => customCodePattern.test(code);

/**
 * Whether a short code typed in the edit dialog may be saved. An unchanged code is not checked; a
 * malformed one is invalid at once; otherwise the server is asked 500 ms after typing stops.
 */
export function useShortCodeCheck(code: string, currentCode: string): ShortCodeCheck {
  const [settledCode] = useDebouncedValue(code, availabilityCheckDelayMs);
  const changed = code !== currentCode;
  const wellFormed = isWellFormedShortCode(code);
  const settled = settledCode === code;
  const availability = useQuery({
    ...shortCodeAvailabilityQueryOptions(settledCode),
    enabled: changed && wellFormed && settled,
  });

  if (!changed) return { state: 'unchanged' };
  if (!wellFormed) return { state: 'invalid', message: CUSTOM_CODE_RULE };
  if (!settled || availability.isFetching) return { state: 'checking' };
  if (availability.isError) return { state: 'invalid', message: 'Unable to check availability' };
  if (!availability.data) return { state: 'checking' };
  const { available, message } = availability.data;
  return available ? { state: 'valid', message } : { state: 'invalid', message };
}
