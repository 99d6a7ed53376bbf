import type { Link } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import {
  controlRules,
  createControls,
  editControls,
  emptyLinkForm,
  type LinkFormValues,
  linkFieldProblem,
  linkFormOf,
  newRule,
  normalizedTags,
  onFieldWords,
  optionsSummary,
  pickerTime,
  type RuleConditionValues,
  targetOf,
} from './linkForm';
import { noUtm } from './utm';

const link: Link = {
  id: 'l1',
  title: null,
  originalUrl: 'https://shop.example/p?a=1&utm_source=news#top',
  shortCode: 'abc1234',
  shortUrl: 'https://snip.example/s/abc1234',
  clickCount: 0,
  createdAt: '2026-11-20T10:00:00.000Z',
  hasPassword: true,
  expiresAt: '2026-12-24T18:00:00.000Z',
  maxClicks: 10,
  clicksUsed: 2,
  fallbackUrl: null,
  paused: false,
  tags: ['sales', 'winter'],
  rules: [],
  status: 'active',
  pendingApproval: false,
};
const form = (values: Partial<LinkFormValues>): LinkFormValues => ({ ...emptyLinkForm, ...values });

describe('a new link from the form', () => {
  it('sends no control for a plain link', () => {
    expect(createControls(form({ originalUrl: 'shop.example' }))).toEqual({});
  });

  it('sends the controls that are set, tags as stored and the expiry as an instant', () => {
    const expiresAt = pickerTime('2026-12-24T18:00:00.000Z');
    expect(
      createControls(
        form({
          password: 'open sesame',
          expiresAt,
          maxClicks: 25,
          fallbackUrl: 'shop.example/over',
          paused: true,
          tags: ['Sales ', 'sales', 'Q4'],
        }),
      ),
    ).toEqual({
      password: 'open sesame',
      expiresAt: '2026-12-24T18:00:00.000Z',
      maxClicks: 25,
      fallbackUrl: 'https://shop.example/over',
      paused: true,
      tags: ['sales', 'q4'],
    });
  });

  it('builds the target from the typed URL and the utm fields', () => {
    expect(targetOf({ originalUrl: ' shop.example/p#x ', utm: { ...noUtm, campaign: 'black friday' } })).toBe(
      'https://shop.example/p?utm_campaign=black%20friday#x',
    );
  });
});

describe('an edit of a link', () => {
  it('shows the target without its utm parameters, which fill the builder, and never a password', () => {
    const values = linkFormOf(link);
    expect(values.originalUrl).toBe('https://shop.example/p?a=1#top');
    expect(values.utm).toEqual({ ...noUtm, source: 'news' });
    expect(targetOf(values)).toBe(link.originalUrl);
    expect(values.password).toBe('');
    expect(values.passwordAction).toBe('keep');
  });

  it('sends nothing of the controls when none changed', () => {
    expect(editControls(linkFormOf(link), link)).toEqual({});
  });

  it('sends only what changed, null for a control cleared', () => {
    const values = linkFormOf(link);
    expect(
      editControls(
        {
          ...values,
          passwordAction: 'remove',
          expiresAt: null,
          maxClicks: '',
          paused: true,
          tags: ['winter'],
        },
        link,
      ),
    ).toEqual({ password: null, expiresAt: null, maxClicks: null, paused: true, tags: ['winter'] });
    expect(editControls({ ...values, passwordAction: 'change', password: 'new one' }, link)).toEqual({
      password: 'new one',
    });
    // Changing the password but typing none keeps it.
    expect(editControls({ ...values, passwordAction: 'change', password: '' }, link)).toEqual({});
  });
});

describe('the controls checked as typed', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('refuses a blank or too long password, a past expiry, a click limit that is no whole number', () => {
    expect(controlRules.password('   ', 'change')).toMatch(/^Must be 1-128 characters/);
    expect(controlRules.password('x'.repeat(129), 'change')).toMatch(/^Must be 1-128/);
    expect(controlRules.password('fine', 'change')).toBeNull();
    expect(controlRules.password('   ', 'keep')).toBeNull();
    expect(controlRules.expiresAt(pickerTime('2026-11-28T11:00:00Z'), now)).toBe('Pick a time in the future');
    expect(controlRules.expiresAt(pickerTime('2026-11-29T11:00:00Z'), now)).toBeNull();
    expect(controlRules.maxClicks(0)).toMatch(/^A whole number from 1/);
    expect(controlRules.maxClicks(2.5)).toMatch(/^A whole number/);
    expect(controlRules.maxClicks('')).toBeNull();
    expect(controlRules.fallbackUrl('ftp://x.example')).toBe('Only http and https URLs can be shortened');
    expect(controlRules.fallbackUrl('')).toBeNull();
  });

  it('takes tags as the server stores them and refuses more than ten or odd characters', () => {
    expect(normalizedTags([' Sales', 'sales', 'Q4', ''])).toEqual(['sales', 'q4']);
    expect(controlRules.tags(['sales', 'q4'])).toBeNull();
    expect(controlRules.tags(['two words'])).toMatch(/^Each tag must be 1-32 characters/);
    expect(controlRules.tags(Array.from({ length: 11 }, (_, n) => `t${n}`))).toBe(
      'Must have at most 10 tags',
    );
  });

  it("puts the server's refusal on the field without repeating the field's name", () => {
    expect(onFieldWords('expiresAt', 'expiresAt must be in the future')).toBe('Must be in the future');
    expect(onFieldWords('fallbackUrl', 'fallbackUrl: The URL is not public')).toBe('The URL is not public');
    expect(onFieldWords('tags', 'Something else')).toBe('Something else');
  });
});

describe('what the folded options hold', () => {
  it('names each control set, and nothing for a plain link', () => {
    expect(optionsSummary(emptyLinkForm)).toBe('');
    expect(optionsSummary(form({ utm: { ...noUtm, source: 'x' }, password: 'p', tags: ['a', 'b'] }))).toBe(
      'UTM parameters, password, 2 tags',
    );
    expect(optionsSummary(linkFormOf(link))).toBe('UTM parameters, password, expiry, click limit, 2 tags');
  });
});

describe('targeting rules in the form', () => {
  const rules: Link['rules'] = [
    { when: { country: ['GB', 'IE'], device: ['mobile'] }, url: 'https://example.co.uk/m' },
    { when: { language: ['fr'] }, url: 'https://example.fr/' },
  ];
  const ruled = { ...link, rules };

  it('shows each saved rule as its condition rows, and sends them back unchanged as no change', () => {
    const values = linkFormOf(ruled);
    expect(values.rules.map((rule) => rule.conditions.map(({ type, values }) => [type, values]))).toEqual([
      [
        ['country', ['GB', 'IE']],
        ['device', ['mobile']],
      ],
      [['language', ['fr']]],
    ]);
    expect(editControls(values, ruled)).not.toHaveProperty('rules');
    expect(optionsSummary(values)).toContain('2 targeting rules');
  });

  it('sends new rules with rows of one type merged and a scheme added; removing them all sends []', () => {
    const rule = newRule();
    const added = {
      ...rule,
      conditions: [
        { ...(rule.conditions[0] as RuleConditionValues), values: ['US'] },
        { key: 'k', type: 'country' as const, values: ['CA'] },
      ],
      url: 'shop.example/na',
    };
    expect(createControls(form({ rules: [added] }))).toEqual({
      rules: [{ when: { country: ['US', 'CA'] }, url: 'https://shop.example/na' }],
    });
    expect(editControls({ ...linkFormOf(ruled), rules: [] }, ruled)).toEqual({ rules: [] });
    expect(controlRules.ruleConditions(rule.conditions)).toMatch(/^Must have at least one condition/);
  });

  it("puts the server's refusal of a rule on that rule's field", () => {
    const refusal = (field: string, message: string, code = 'VALIDATION_FAILED') =>
      new ApiError(400, JSON.stringify({ code, message, field }), 'Bad Request');
    expect(
      linkFieldProblem(
        refusal('rules[1].url', 'rules[1].url: Only http and https URLs can be shortened', 'INVALID_URL'),
      ),
    ).toEqual({ field: 'rules.1.url', message: 'Only http and https URLs can be shortened' });
    expect(linkFieldProblem(refusal('rules.0.when', 'rules.0.when each device must be one of ios'))).toEqual({
      field: 'rules.0.conditions',
      message: 'Each device must be one of ios',
    });
    expect(linkFieldProblem(refusal('rules', 'rules must have at most 20 rules'))).toEqual({
      field: 'rules',
      message: 'Must have at most 20 rules',
    });
  });
});
