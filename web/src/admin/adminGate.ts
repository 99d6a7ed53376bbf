import type { User } from '@sniplink/contracts';
import { redirect } from '@tanstack/react-router';
import { toast } from '../components/toast';

/** A non-admin is sent home after this long, so the toast can be read. */
export const adminRedirectDelayMs = 500;

/**
 * The console's gate in the browser (the server refuses every call of the console on its own): an admin
 * passes; anyone else sees "Unauthorized" / "Admin access required." and is sent to / after 500 ms. A
 * preload (a hovered link) only redirects, without a toast or a wait.
 */
export async function requireAdmin(user: User, preload = false): Promise<User> {
  if (user.isAdmin) return user;
  if (!preload) {
    toast.error('Unauthorized', 'Admin access required.');
    await new Promise((resolve) => setTimeout(resolve, adminRedirectDelayMs));
  }
  throw redirect({ to: '/' });
}
