/**
 * The query the payment provider's checkout comes back with: `payment=success` with the
 * checkout's `session_id`, or `payment=canceled`. Read on /subscribe (and /home), then cleaned off the
 * address.
 */
export interface PaymentReturnSearch {
  payment?: 'success' | 'canceled';
  session_id?: string;
}

export function paymentReturnSearch(search: Record<string, unknown>): PaymentReturnSearch {
  const { payment, session_id: sessionId } = search;
  return {
    payment: payment === 'success' || payment === 'canceled' ? payment : undefined,
    session_id: typeof sessionId === 'string' && sessionId !== '' ? sessionId : undefined,
  };
}

/** Success needs both the flag and the session it is about; a bare flag is only cleaned away. */
export function paymentReturnOf(search: PaymentReturnSearch): 'success' | 'canceled' | undefined {
  if (search.payment === 'success') return search.session_id ? 'success' : undefined;
  return search.payment;
}

/** Whether the address still carries any of the provider's query, and is to be cleaned. */
export const carriesPaymentQuery = (search: PaymentReturnSearch): boolean =>
  search.payment !== undefined || search.session_id !== undefined;
