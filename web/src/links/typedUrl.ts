import { withDefaultScheme } from '@sniplink/contracts/links/typed-url';

/**
 * What is wrong with a URL typed into the dashboard's or onboarding's form, said on the field at once, or
 * null. Forgiving as the server is: `example.com/x` is `https://example.com/x`. The server checks the rest
 * (a public host, not one of our short links) and its answer lands on the same field.
 */
export function typedUrlProblem(typed: string): string | null {
  const url = withDefaultScheme(typed);
  if (url === '') return 'Enter the URL to shorten';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'This is not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return 'Only http and https URLs can be shortened';
  }
  return null;
}

/** The URL to send: trimmed, with `https://` where no scheme was typed. */
export const urlToSend = (typed: string): string => withDefaultScheme(typed);
