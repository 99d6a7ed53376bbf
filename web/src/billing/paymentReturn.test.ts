import { describe, expect, it } from 'vitest';
import { carriesPaymentQuery, paymentReturnOf, paymentReturnSearch } from './paymentReturn';

/** As the router hands the query over: each parameter parsed as JSON where it can be. */
const returnFrom = (query: Record<string, unknown>) => {
  const search = paymentReturnSearch(query);
  return { outcome: paymentReturnOf(search), clean: carriesPaymentQuery(search) };
};

describe('coming back from the checkout', () => {
  it('is a success with the flag and its session, and the address is cleaned', () => {
    expect(returnFrom({ payment: 'success', session_id: 'cs_test_123' })).toEqual({
      outcome: 'success',
      clean: true,
    });
  });

  it('is a cancellation with payment=canceled, and the address is cleaned', () => {
    expect(returnFrom({ payment: 'canceled' })).toEqual({ outcome: 'canceled', clean: true });
  });

  it('shows nothing for a bare success flag or a lone session id, but still cleans them away', () => {
    expect(returnFrom({ payment: 'success' })).toEqual({ outcome: undefined, clean: true });
    expect(returnFrom({ payment: 'success', session_id: '' })).toEqual({ outcome: undefined, clean: true });
    expect(returnFrom({ session_id: 'cs_test_123' })).toEqual({ outcome: undefined, clean: true });
  });

  it('leaves an ordinary visit, or an unknown payment value, alone', () => {
    expect(returnFrom({})).toEqual({ outcome: undefined, clean: false });
    expect(returnFrom({ payment: 'refunded' })).toEqual({ outcome: undefined, clean: false });
    expect(returnFrom({ session_id: 42 })).toEqual({ outcome: undefined, clean: false });
  });
});
