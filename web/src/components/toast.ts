import { notifications } from '@mantine/notifications';

/**
 * Toasts: at most one on screen, shown for 5 seconds, errors
 * in the destructive (red) style. The single-toast limit and position live on the <Notifications/>
 * provider in main.tsx; this helper only decides the look of one toast.
 */
export const toastDurationMs = 5000;

function show(color: 'green' | 'red' | 'blue', title: string, message: string) {
  // Hiding first keeps "at most one visible": a new toast replaces the old one instead of queueing.
  notifications.clean();
  notifications.show({ title, message, color, autoClose: toastDurationMs, withBorder: true });
}

export const toast = {
  success: (title: string, message = '') => show('green', title, message),
  error: (title: string, message = '') => show('red', title, message),
  /** Neither a success nor a failure: something still under way. */
  info: (title: string, message = '') => show('blue', title, message),
};
