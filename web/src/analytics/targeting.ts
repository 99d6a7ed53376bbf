import type { TargetingDevice, TargetingRule, TargetingWhen } from '@sniplink/contracts';

const DEVICE_NAMES: Record<TargetingDevice, string> = {
  ios: 'iPhone or iPad',
  android: 'Android',
  desktop: 'desktop',
  mobile: 'mobile phone',
};

let languageNames: Intl.DisplayNames | undefined;
let regionNames: Intl.DisplayNames | undefined;

/** A language's name in the reader's language ("English" for `en`), or its code when it has none. */
const languageName = (code: string) => {
  languageNames ??= new Intl.DisplayNames(undefined, { type: 'language' });
  return languageNames.of(code) ?? code;
};
const countryName = (code: string) => {
  regionNames ??= new Intl.DisplayNames(undefined, { type: 'region' });
  return regionNames.of(code) ?? code;
};

/** A rule's conditions in words: "country United Kingdom or Ireland, device iPhone or iPad". */
export function conditionsText(when: TargetingWhen): string {
  const parts: string[] = [];
  if (when.country?.length) parts.push(`country ${when.country.map(countryName).join(' or ')}`);
  if (when.device?.length) parts.push(`device ${when.device.map((d) => DEVICE_NAMES[d]).join(' or ')}`);
  if (when.language?.length) parts.push(`language ${when.language.map(languageName).join(' or ')}`);
  return parts.join(', ');
}

export interface RuleClicks {
  /** "Rule 1", or "Main target". */
  name: string;
  /** The conditions in words; null for the main target. */
  conditions: string | null;
  url: string | null;
  clicks: number;
}

/**
 * The clicks each rule sent, in the rules' order, then those the main target got. The counts are by a
 * rule's place when clicked (`ruleBreakdown`'s `"0"` is the first rule), so they follow the places.
 */
export function ruleClicks(
  rules: readonly TargetingRule[],
  breakdown: Readonly<Record<string, number>>,
): RuleClicks[] {
  return [
    ...rules.map((rule, index) => ({
      name: `Rule ${index + 1}`,
      conditions: conditionsText(rule.when),
      url: rule.url,
      clicks: breakdown[String(index)] ?? 0,
    })),
    { name: 'Main target', conditions: null, url: null, clicks: breakdown.main ?? 0 },
  ];
}
