import { ValidationError } from '../errors';

export const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const GENERATED_CODE_LENGTH = 7;
export const CUSTOM_CODE_RULE = '3-20 characters: letters, numbers, hyphens, and underscores only';
/** The owner of a premium slug may also give a link a code of one or two characters. */
export const PREMIUM_OWNER_CODE_RULE = '1-20 characters: letters, numbers, hyphens, and underscores only';
const CUSTOM_CODE = /^[A-Za-z0-9_-]{3,20}$/;
const PREMIUM_OWNER_CODE = /^[A-Za-z0-9_-]{1,20}$/;

/** Whose code it is: the owner of a premium slug has the wider rule. */
export interface CodeRuleFor {
  premiumOwner?: boolean;
}

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

/** Why a custom code cannot be used by this user, or null when its shape is fine. */
export function customCodeProblem(code: string, { premiumOwner = false }: CodeRuleFor = {}): string | null {
  if (premiumOwner ? !PREMIUM_OWNER_CODE.test(code) : !CUSTOM_CODE.test(code))
    return premiumOwner ? PREMIUM_OWNER_CODE_RULE : CUSTOM_CODE_RULE;
  if (RESERVED.has(code.toLowerCase())) return 'This short code is reserved';
  return null;
}

/** Whether a code fits everyone's rule (3-20), so that whose it is does not matter. */
export const fitsEveryonesCodeRule = (code: string): boolean => CUSTOM_CODE.test(code);

export function assertCustomCode(code: string, rule: CodeRuleFor = {}): void {
  const problem = customCodeProblem(code, rule);
  if (problem) throw new ValidationError(problem, 'shortCode', 'INVALID_SHORT_CODE');
}

export const isReservedCode = (code: string) => RESERVED.has(code.toLowerCase());
