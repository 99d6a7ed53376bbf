import { z } from 'zod';

/**
 * Characters that put nothing on screen: whitespace (NBSP and the ideographic space U+3000 included),
 * controls, format characters (`\p{Cf}`: zero-width space, non-joiner and joiner U+200B-U+200D, word joiner
 * U+2060, BOM U+FEFF, soft hyphen U+00AD, bidirectional marks, tags), the code points Unicode says to
 * ignore when they cannot be shown (variation selectors, the Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0), and the blank braille pattern U+2800, which renders as a space.
 */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/**
 * Whether a text shows anything: it does once its invisible characters are taken away. The text itself is
 * kept whole, so a family emoji's zero-width joiners stay where they are.
 */
export const hasVisibleText = (text: string): boolean => text.replace(INVISIBLE, '') !== '';

export const BLANK_TEXT = 'must not be blank';

/**
 * Text a person types that must say something (a ticket's subject, an announcement's message): trimmed,
 * and refused naming the field when missing, when nothing in it is visible, or when longer than `max`.
 */
export const visibleText = (max: number, blank: string = BLANK_TEXT) =>
  z
    .string()
    .trim()
    .refine(hasVisibleText, blank)
    .max(max, `must be at most ${max.toLocaleString('en-US')} characters`);

/**
 * Text that may be left out (a name, a link's title): trimmed; one with nothing visible in it is none
 * (`null`), as an empty one is.
 */
export const optionalVisibleText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max.toLocaleString('en-US')} characters`)
    .transform((text) => (hasVisibleText(text) ? text : null));
