import { Notifications } from '@mantine/notifications';
import { toastDurationMs } from './components/toast';

/**
 * Renders the toasts (at most one on screen, each for 5 seconds; see components/toast.ts).
 * Its own chunk, loaded with the first toast: `main.tsx` mounts it once the store holds one.
 */
export default function ToastRenderer() {
  return <Notifications limit={1} autoClose={toastDurationMs} position="top-right" />;
}
