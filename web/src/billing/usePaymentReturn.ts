import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useEffectEvent } from 'react';
import { currentUserQueryKey } from '../accounts/api';
import { carriesPaymentQuery, type PaymentReturnSearch, paymentReturnOf } from './paymentReturn';

/**
 * Back from the provider's checkout on `page`: tells `onReturn` how it went, asks for the user again after
 * a payment (now Pro), and cleans the provider's query off the address (replacing the history entry, so
 * Back does not show it again).
 */
export function usePaymentReturn(
  page: '/home' | '/subscribe',
  search: PaymentReturnSearch,
  onReturn: (outcome: 'success' | 'canceled') => void,
): void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const outcome = paymentReturnOf(search);
  const carriesQuery = carriesPaymentQuery(search);
  const tell = useEffectEvent(onReturn);

  useEffect(() => {
    if (!carriesQuery) return;
    if (outcome) tell(outcome);
    if (outcome === 'success') void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    void navigate({ to: page, search: {}, replace: true });
  }, [carriesQuery, outcome, page, navigate, queryClient]);
}
