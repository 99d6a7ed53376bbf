import { describe, expect, it } from 'vitest';
import { linkAllowanceText, linkLimitReachedMessage } from './limits';

describe('the allowance in words', () => {
  it('names Free as links held at a time and Pro as links a month, with the limit given', () => {
    expect(linkAllowanceText('lifetime', 5)).toBe('5 links at a time');
    expect(linkAllowanceText('month', 14)).toBe('14 links a month');
    expect(linkAllowanceText('month', 1)).toBe('1 link a month');
  });

  it('says in the refusal what to do, in the same words', () => {
    expect(linkLimitReachedMessage('lifetime', 14)).toBe(
      'Free accounts can hold 14 links at a time. Delete a link, or upgrade to Pro to create more.',
    );
    expect(linkLimitReachedMessage('month', 14)).toContain('14 links a month');
  });
});
