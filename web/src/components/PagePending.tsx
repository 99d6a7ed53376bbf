import { Center, Loader } from '@mantine/core';

/**
 * What a page shows, under the top bar, while its loader waits for its data or its code: the router shows
 * it only when the wait is long enough to notice. Its partner for a failure is PageError.
 */
export function PagePending() {
  return (
    <Center py={96}>
      <Loader role="status" aria-label="Loading" />
    </Center>
  );
}
