import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useEffectEvent, useState } from 'react';
import { currentUserQueryKey } from '../accounts/api';
import { toast } from '../components/toast';
import {
  checkoutConfirmationQueryOptions,
  type PaymentVerdict,
  paymentNotices,
  paymentVerdict,
} from './checkoutConfirmation';
import { carriesPaymentQuery, type PaymentReturnSearch, paymentReturnOf } from './paymentReturn';

/** The checkout session a `payment=success` return names, if it names one. */
const returnedSession = (search: PaymentReturnSearch) =>
  paymentReturnOf(search) === 'success' ? search.session_id : undefined;

/**
 * Back from the provider's checkout on `page`: cleans the provider's query off the address at once
 * (replacing the history entry, so Back does not show it again), tells `onReturn` of a cancellation, and
 * of a payment only once the server has said what became of it (`paymentVerdict`); after a confirmed one
 * it asks for the user again (now Pro). `checking`: the server has not said yet.
 */
export function usePaymentReturn(
  page: '/home' | '/subscribe',
  search: PaymentReturnSearch,
  onReturn: (outcome: 'canceled' | PaymentVerdict) => void,
): { checking: boolean } {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const outcome = paymentReturnOf(search);
  const carriesQuery = carriesPaymentQuery(search);
  const tell = useEffectEvent(onReturn);
  // Kept past the cleaning of the address, which is what names it.
  const [sessionId, setSessionId] = useState(() => returnedSession(search));
  const returned = returnedSession(search);

  useEffect(() => {
    if (!carriesQuery) return;
    if (returned) setSessionId(returned);
    if (outcome === 'canceled') tell(outcome);
    void navigate({ to: page, search: {}, replace: true });
  }, [carriesQuery, outcome, returned, page, navigate]);

  const confirmation = checkoutConfirmationQueryOptions(sessionId ?? '');
  const check = useQuery({ ...confirmation, enabled: sessionId !== undefined });
  // How many answers came: each one renders this again.
  const answers = queryClient.getQueryState(confirmation.queryKey)?.dataUpdateCount ?? 0;
  const verdict = sessionId ? paymentVerdict({ answer: check.data, error: check.error, answers }) : undefined;

  useEffect(() => {
    if (!verdict) return;
    tell(verdict);
    if (verdict === 'confirmed') void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
  }, [verdict, queryClient]);

  return { checking: sessionId !== undefined && verdict === undefined };
}

/** The toast of a payment the server did not confirm (yet). */
export function showPaymentNotice(verdict: Exclude<PaymentVerdict, 'confirmed'>): void {
  const notice = paymentNotices[verdict];
  toast[notice.tone](notice.title, notice.message);
}
