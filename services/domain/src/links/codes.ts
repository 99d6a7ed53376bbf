import { ValidationError } from '../errors';

export const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const GENERATED_CODE_LENGTH = 7;
export const CUSTOM_CODE_RULE = '3-20 characters: letters, numbers, hyphens, and underscores only';
const CUSTOM_CODE = /^[A-Za-z0-9_-]{3,20}$/;

/**
 * Words a link may never take: the site's own paths and words that would mislead (the admin
 * console is to add prohibited words and brands).
 */
const RESERVED = new Set([
  'about',
  'account',
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'contact',
  'dashboard',
  'docs',
  'favicon',
  'forgot-password',
  'healthz',
  'help',
  'home',
  'login',
  'logout',
  'marketplace',
  'new',
  'onboarding',
  'premium',
  'pricing',
  'privacy',
  'profile',
  'readyz',
  'register',
  'reset-password',
  'root',
  'settings',
  'signin',
  'signup',
  'sniplink',
  'static',
  'status',
  'subscribe',
  'support',
  'terms',
  'www',
]);

/** A random 7-character code of a-z and 0-9; `randomBytes` is the CSPRNG (passed in: no randomness here). */
export function generateCode(randomBytes: (count: number) => Uint8Array): string {
  let code = '';
  while (code.length < GENERATED_CODE_LENGTH) {
    for (const byte of randomBytes(16)) {
      // 252 is the largest multiple of 36 below 256: rejecting the rest keeps every character equally likely.
      if (byte < 252 && code.length < GENERATED_CODE_LENGTH) code += CODE_ALPHABET[byte % 36];
    }
  }
  return code;
}

/** Why a custom code cannot be used, or null when its shape is fine. */
export function customCodeProblem(code: string): string | null {
  if (!CUSTOM_CODE.test(code)) return CUSTOM_CODE_RULE;
  if (RESERVED.has(code.toLowerCase())) return 'This short code is reserved';
  return null;
}

export function assertCustomCode(code: string): void {
  const problem = customCodeProblem(code);
  if (problem) throw new ValidationError(problem, 'shortCode', 'INVALID_SHORT_CODE');
}

export const isReservedCode = (code: string) => RESERVED.has(code.toLowerCase());
