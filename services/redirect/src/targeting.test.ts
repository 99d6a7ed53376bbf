import type { TargetingRule } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { matchingRule, primaryLanguages } from './targeting';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  pixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};
/** 8.8.8.8 is in the US and 81.2.69.160 in Great Britain in geoip-country's data, as analytics counts them. */
const US = '8.8.8.8';
const GB = '81.2.69.160';

const rule = (when: TargetingRule['when'], url: string): TargetingRule => ({ when, url });
const visit = (over: Partial<Parameters<typeof matchingRule>[1]> = {}) => ({
  userAgent: UA.windows,
  acceptLanguage: undefined,
  clientIp: undefined,
  ...over,
});

describe('targeting rules', () => {
  it('sends a visitor by country, as analytics places their address', () => {
    const rules = [rule({ country: ['GB', 'IE'] }, 'https://example.co.uk/')];
    expect(matchingRule(rules, visit({ clientIp: GB }))).toEqual({ index: 0, url: 'https://example.co.uk/' });
    expect(matchingRule(rules, visit({ clientIp: US }))).toBeUndefined();
    expect(matchingRule(rules, visit({ clientIp: '10.0.0.1' }))).toBeUndefined();
  });

  it('tells devices apart: mobile is every phone, ios and android any device of theirs, tablets are no phone', () => {
    const device = (name: 'ios' | 'android' | 'desktop' | 'mobile') => [
      rule({ device: [name] }, 'https://x.example.com/'),
    ];
    const matched = (name: 'ios' | 'android' | 'desktop' | 'mobile') =>
      Object.entries(UA)
        .filter(([, userAgent]) => matchingRule(device(name), visit({ userAgent })) !== undefined)
        .map(([agent]) => agent);
    expect(matched('ios')).toEqual(['iphone', 'ipad']);
    expect(matched('android')).toEqual(['pixel']);
    expect(matched('mobile')).toEqual(['iphone', 'pixel']);
    expect(matched('desktop')).toEqual(['windows']);
  });

  it('matches a language by its primary subtag, ignoring case and refused (q=0) languages', () => {
    expect(primaryLanguages('en-GB,fr-CA;q=0.8, DE;q=0.5, *;q=0.1, es;q=0')).toEqual(['en', 'fr', 'de']);
    const rules = [rule({ language: ['fr'] }, 'https://example.fr/')];
    expect(matchingRule(rules, visit({ acceptLanguage: 'FR-be' }))?.index).toBe(0);
    expect(matchingRule(rules, visit({ acceptLanguage: 'en-US' }))).toBeUndefined();
    expect(matchingRule(rules, visit())).toBeUndefined();
  });

  it('needs every condition of a rule, and the first rule that matches wins', () => {
    const rules = [
      rule({ country: ['GB'], device: ['mobile'] }, 'https://mobile.example.co.uk/'),
      rule({ country: ['GB'] }, 'https://example.co.uk/'),
      rule({ device: ['desktop'] }, 'https://desktop.example.com/'),
    ];
    expect(matchingRule(rules, visit({ clientIp: GB, userAgent: UA.iphone }))?.index).toBe(0);
    expect(matchingRule(rules, visit({ clientIp: GB }))?.index).toBe(1);
    expect(matchingRule(rules, visit({ clientIp: US }))?.index).toBe(2);
    expect(matchingRule(rules, visit({ clientIp: US, userAgent: UA.pixel }))).toBeUndefined();
  });
});
