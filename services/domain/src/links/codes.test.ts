import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { customCodeProblem, generateCode } from './codes';

describe('short codes', () => {
  it('generates 7 characters of a-z and 0-9, every character about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const code = generateCode(randomBytes);
      expect(code).toMatch(/^[a-z0-9]{7}$/);
      for (const char of code) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(counts.size).toBe(36);
    const expected = (20_000 * 7) / 36;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.1);
  });

  it('takes custom codes of 3-20 letters, digits, - and _, and refuses reserved words', () => {
    for (const ok of ['abc', 'My_Shop-2026', 'x'.repeat(20)]) expect(customCodeProblem(ok)).toBeNull();
    for (const bad of ['ab', 'x'.repeat(21), 'has space', 'ümlaut', 'a/b', 'a.b']) {
      expect(customCodeProblem(bad)).toBe('3-20 characters: letters, numbers, hyphens, and underscores only');
    }
    expect(customCodeProblem('Admin')).toBe('This short code is reserved');
    expect(customCodeProblem('api')).toBe('This short code is reserved');
  });

  it("takes 1-20 characters from a premium slug owner, with the owner's rule as the message", () => {
    const owner = { premiumOwner: true };
    for (const ok of ['x', 'Q7', 'abc', 'x'.repeat(20)]) expect(customCodeProblem(ok, owner)).toBeNull();
    for (const bad of ['', 'x'.repeat(21), 'a b', 'a.b']) {
      expect(customCodeProblem(bad, owner)).toBe(
        '1-20 characters: letters, numbers, hyphens, and underscores only',
      );
    }
    expect(customCodeProblem('api', owner)).toBe('This short code is reserved');
  });
});
