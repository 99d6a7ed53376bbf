import { toast } from '../components/toast';
import { invalidUrlProblem, startsWithHttp } from './linkErrors';

/**
 * The URL typed into the dashboard's or onboarding's form, trimmed, or undefined when there is nothing to
 * shorten: empty input is ignored, anything not starting with http(s):// gets the "Invalid URL" toast.
 */
export function urlToShorten(input: string): string | undefined {
  const url = input.trim();
  if (!url) return undefined;
  if (!startsWithHttp(url)) {
    toast.error(invalidUrlProblem.title, invalidUrlProblem.message);
    return undefined;
  }
  return url;
}
