/**
 * The rule of a custom short code, without zod: the web app's dashboard imports it from
 * `@sniplink/contracts/short-codes`, so that its bundle holds neither zod nor zod's probe for `eval`
 * (`Function('')`, which the page's policy refuses and reports).
 */
export const CUSTOM_CODE_RULE = '3-20 characters: letters, numbers, hyphens, and underscores only';
export const customCodePattern = /^[A-Za-z0-9_-]{3,20}$/;
/** The owner of a premium slug may also give a link a code of one or two characters. */
export const PREMIUM_OWNER_CODE_RULE = '1-20 characters: letters, numbers, hyphens, and underscores only';
export const premiumOwnerCodePattern = /^[A-Za-z0-9_-]{1,20}$/;
