import type { User } from '@sniplink/contracts';

/** The display name: firstName, else the capitalised part of the e-mail before the @, else "User". */
export function displayNameOf(user: Pick<User, 'firstName' | 'email'>): string {
  const firstName = user.firstName?.trim();
  if (firstName) return firstName;
  const local = user.email?.split('@')[0]?.trim();
  if (local) return local.charAt(0).toUpperCase() + local.slice(1);
  return 'User';
}

/** The avatar's fallback: the first letter of the display name. */
export function initialOf(user: Pick<User, 'firstName' | 'email'>): string {
  return displayNameOf(user).charAt(0).toUpperCase();
}
