import type { TargetingRule } from '@sniplink/contracts';
import { describeVisitor, type VisitorDescription } from './click-description';

/** What a rule looks at of one visit: the headers and the address the app trusts. */
export interface TargetingVisit {
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
  clientIp: string | undefined;
}

/** The rule that sends this visit (the first whose conditions all hold), or undefined for the main target. */
export function matchingRule(
  rules: readonly TargetingRule[],
  visit: TargetingVisit,
): { index: number; url: string } | undefined {
  if (rules.length === 0) return undefined;
  const visitor = describeVisitor(visit.userAgent, visit.clientIp);
  const languages = primaryLanguages(visit.acceptLanguage);
  const index = rules.findIndex((rule) => matches(rule, visitor, languages));
  const rule = rules[index];
  return rule ? { index, url: rule.url } : undefined;
}

function matches(rule: TargetingRule, visitor: VisitorDescription, languages: readonly string[]): boolean {
  const { country, device, language } = rule.when;
  if (country && !country.includes(visitor.country)) return false;
  if (device && !device.some((name) => isDevice(name, visitor))) return false;
  if (language && !language.some((name) => languages.includes(name))) return false;
  return true;
}

/**
 * A device as a rule names it, from analytics' description of the agent: `mobile` is analytics' phone
 * (iOS and Android phones included, tablets not), `ios` and `android` any device of that system.
 */
function isDevice(name: string, visitor: VisitorDescription): boolean {
  switch (name) {
    case 'ios':
      return visitor.os === 'iOS';
    case 'android':
      return visitor.os === 'Android';
    case 'mobile':
      return visitor.device === 'mobile';
    case 'desktop':
      return visitor.device === 'desktop';
    default:
      return false;
  }
}

/**
 * The primary subtags (lower-cased) of the languages an `Accept-Language` header accepts: `en-GB,fr;q=0.8`
 * gives `en` and `fr`; `*` and a `q=0` are no language. Looks at the first 32 entries only.
 */
export function primaryLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const languages: string[] = [];
  for (const entry of header.split(',', 32)) {
    const [range = '', ...params] = entry.split(';');
    const quality = params.find((param) => param.trim().startsWith('q='));
    if (quality !== undefined && Number(quality.trim().slice(2)) === 0) continue;
    const primary = range.trim().split('-')[0]?.toLowerCase() ?? '';
    if (/^[a-z]{1,8}$/.test(primary) && !languages.includes(primary)) languages.push(primary);
  }
  return languages;
}
