import { linkEndpoints } from '@sniplink/contracts';
import { FREE_LINK_LIMIT, linkAllowanceText, PRO_MONTHLY_LINK_LIMIT } from '@sniplink/contracts/links/limits';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../api/client';

/** The allowances in force (an admin may change them), cached 5 minutes: the landing page asks for them. */
export const linkLimitsQueryOptions = () =>
  queryOptions({
    queryKey: [linkEndpoints.linkLimits.path] as const,
    queryFn: ({ signal }) => call(linkEndpoints.linkLimits, {}, { signal }),
    staleTime: 5 * 60_000,
  });

/**
 * Both plans' allowances in words ("5 links at a time", "500 links a month"), with the limits in force;
 * the built-in defaults only while they cannot be read (the route's loader asks for them first).
 */
export function useLinkLimitTexts(): { free: string; pro: string } {
  const { data } = useQuery(linkLimitsQueryOptions());
  return {
    free: linkAllowanceText('lifetime', data?.free ?? FREE_LINK_LIMIT),
    pro: linkAllowanceText('month', data?.proMonthly ?? PRO_MONTHLY_LINK_LIMIT),
  };
}
