/** Checkout's placeholder for the session's id, which Stripe fills in when it sends the browser back. */
export const CHECKOUT_SESSION_ID = '{CHECKOUT_SESSION_ID}';

/**
 * Where either provider's checkout sends the browser back to: /subscribe, which shows the success screen
 * or the "Payment Canceled" toast (spec section 4).
 */
export function checkoutReturnUrls(publicUrl: string): { success: string; cancel: string } {
  return {
    success: `${publicUrl}/subscribe?payment=success&session_id=${CHECKOUT_SESSION_ID}`,
    cancel: `${publicUrl}/subscribe?payment=canceled`,
  };
}
