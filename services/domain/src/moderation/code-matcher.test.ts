import { describe, expect, it } from 'vitest';
import { CodeMatcher, type ModerationEntry, normaliseEntry } from './code-matcher';

const word = (text: string): ModerationEntry => ({ kind: 'word', text });
const brand = (text: string, requiresApproval = true): ModerationEntry => ({
  kind: 'brand',
  text,
  requiresApproval,
});

const lists = new CodeMatcher([
  word('scam'),
  word('ass'),
  brand('Google'),
  brand('IBM'),
  brand('Gap'),
  brand('Tesla', false),
]);
const outcome = (code: string) => lists.check(code).outcome;

describe('the code matcher', () => {
  it('finds a prohibited word whatever its case, inside the code', () => {
    expect(outcome('scam')).toBe('prohibited');
    expect(outcome('SCAM')).toBe('prohibited');
    expect(outcome('freescamdeals')).toBe('prohibited');
  });

  it.each([
    ['5c4m', 'digits for letters'],
    ['sc@m', '@ for a'],
    ['$cam', '$ for s'],
    ['s-c-a-m', 'hyphens between letters'],
    ['s_c_a_m', 'underscores between letters'],
    ['get-5C4M-now', 'mixed case and disguises inside'],
  ])('sees through %s (%s)', (code) => {
    expect(outcome(code)).toBe('prohibited');
  });

  it('reads 1 as i and as l', () => {
    expect(outcome('goog1e')).toBe('protected');
    expect(new CodeMatcher([word('kill')]).check('k1ll').outcome).toBe('prohibited');
    expect(new CodeMatcher([word('kill')]).check('ki11').outcome).toBe('prohibited');
    expect(new CodeMatcher([word('spit')]).check('sp1t').outcome).toBe('prohibited');
  });

  it('names the brand a code needs approval for', () => {
    expect(lists.check('mygoogledeals')).toEqual({
      outcome: 'protected',
      brand: 'Google',
      requiresApproval: true,
    });
    expect(lists.check('g00gle')).toMatchObject({ brand: 'Google' });
    expect(lists.check('tesla-deals')).toEqual({
      outcome: 'protected',
      brand: 'Tesla',
      requiresApproval: false,
    });
  });

  it('matches a short entry only as the whole code or a whole part of it', () => {
    for (const code of ['ibm', 'IBM', 'ibm-jobs', 'jobs_ibm', 'ibm2024', '2024ibm', 'i-b-m', 'gap-store'])
      expect(outcome(code), code).toBe('protected');
    expect(outcome('my-a55')).toBe('prohibited');
  });

  it.each(['ribmaker', 'gaps', 'singapore', 'glass', 'class1', 'passport', 'massive-deals', 'ambassador'])(
    'lets %s through: an ordinary word merely containing a short entry',
    (code) => {
      expect(outcome(code)).toBe('clear');
    },
  );

  it('lets ordinary codes through', () => {
    for (const code of ['my-link', 'summer-sale', 'abc123', 'x7k2p9q'])
      expect(outcome(code), code).toBe('clear');
  });

  it('prefers a prohibited word, then a brand that refuses, to a brand in review', () => {
    expect(lists.check('google-scam').outcome).toBe('prohibited');
    expect(lists.check('google-tesla')).toMatchObject({ brand: 'Tesla', requiresApproval: false });
  });

  it('matches nothing with empty lists, and ignores entries with nothing to compare', () => {
    expect(new CodeMatcher([]).check('anything').outcome).toBe('clear');
    expect(new CodeMatcher([word('--')]).check('a-b').outcome).toBe('clear');
  });

  it('compares entries as codes are compared', () => {
    expect(normaliseEntry('Coca-Cola')).toBe('cocacola');
    expect(normaliseEntry(' B4D W0RD ')).toBe('badword');
    expect(new CodeMatcher([brand('Coca-Cola')]).check('cocacola-deals').outcome).toBe('protected');
  });
});
