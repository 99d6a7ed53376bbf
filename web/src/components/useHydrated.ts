import { useSyncExternalStore } from 'react';

const noChanges = () => () => {};

/**
 * False while the page is the server's markup (on the server, and in the browser until React has taken
 * it over), true from then on, and at once in a page the browser renders alone. For a part that only
 * works with the app's script: the server's page shows its place, and the part comes with the script,
 * so no one types into a form that cannot send yet.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
}
