import { DomainError, ServiceUnavailableError } from '@sniplink/domain';
import type { Logger } from '@sniplink/platform';

/**
 * A call to the payment provider; when it fails (down, refused, rate limited), a 503 the caller can retry,
 * never a 500. A domain error the call raises itself passes through as it is.
 */
export async function atProvider<T>(
  deps: { payments: { readonly name: string }; log: Logger },
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    deps.log.warn({ err: error, provider: deps.payments.name }, 'payment provider call failed');
    throw new ServiceUnavailableError('The payment provider could not be reached; please try again');
  }
}
