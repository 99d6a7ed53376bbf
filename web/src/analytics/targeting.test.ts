import { describe, expect, it } from 'vitest';
import { conditionsText, ruleClicks } from './targeting';

describe('targeting rules in the analytics panel', () => {
  it('say each condition in words, its values joined by "or"', () => {
    expect(conditionsText({ country: ['GB', 'IE'], device: ['ios'], language: ['en'] })).toBe(
      'country United Kingdom or Ireland, device iPhone or iPad, language English',
    );
    expect(conditionsText({ device: ['mobile', 'desktop'] })).toBe('device mobile phone or desktop');
  });

  it('count each rule by its place and the main target, a rule nobody matched at 0', () => {
    const rules = [
      { when: { device: ['ios' as const] }, url: 'https://example.com/ios' },
      { when: { country: ['FR'] }, url: 'https://example.com/fr' },
    ];
    expect(ruleClicks(rules, { '0': 3, main: 7 })).toEqual([
      { name: 'Rule 1', conditions: 'device iPhone or iPad', url: 'https://example.com/ios', clicks: 3 },
      { name: 'Rule 2', conditions: 'country France', url: 'https://example.com/fr', clicks: 0 },
      { name: 'Main target', conditions: null, url: null, clicks: 7 },
    ]);
  });
});
