import { describe, expect, it } from 'vitest';
import { planLabelOf } from '../accounts/plan';
import { displayNameOf } from '../components/userDisplay';
import { dailyGreetingIndex, greetingCount, greetingFor } from './greeting';

describe('displayNameOf', () => {
  it('is the first name when there is one', () => {
    expect(displayNameOf({ firstName: 'Ada', email: 'lovelace@example.com' })).toBe('Ada');
  });

  it('is the capitalised part of the e-mail before the @ otherwise', () => {
    expect(displayNameOf({ firstName: null, email: 'grace.hopper@example.com' })).toBe('Grace.hopper');
    expect(displayNameOf({ firstName: '  ', email: 'bob@example.com' })).toBe('Bob');
  });

  it('is "User" with neither', () => {
    expect(displayNameOf({ firstName: null, email: null })).toBe('User');
    expect(displayNameOf({ firstName: '', email: '@example.com' })).toBe('User');
  });
});

describe('planLabelOf', () => {
  it('is Pro only for an active subscription', () => {
    expect(planLabelOf({ subscriptionStatus: 'active' })).toBe('Pro');
    expect(planLabelOf({ subscriptionStatus: 'inactive' })).toBe('Free');
    expect(planLabelOf({ subscriptionStatus: 'suspended' })).toBe('Free');
  });
});

describe('greetingFor', () => {
  const morning = new Date(2026, 10, 22, 8, 0);
  const evening = new Date(2026, 10, 22, 23, 30);

  it('welcomes a first-time visitor to Sniplink', () => {
    expect(greetingFor({ userId: 'u1', name: 'Ada', firstVisit: true }, morning)).toBe(
      'Welcome to Sniplink, Ada!',
    );
  });

  it('keeps the same phrase all day for a user', () => {
    expect(dailyGreetingIndex('u1', morning)).toBe(dailyGreetingIndex('u1', evening));
    const greeting = greetingFor({ userId: 'u1', name: 'Ada', firstVisit: false }, morning);
    expect(greeting).toContain('Ada');
    expect(greetingFor({ userId: 'u1', name: 'Ada', firstVisit: false }, evening)).toBe(greeting);
  });

  it('picks among all ten phrases across users and days', () => {
    const seen = new Set<number>();
    for (let day = 1; day <= 60; day++) {
      const index = dailyGreetingIndex('user-42', new Date(2026, 0, day));
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(greetingCount);
      seen.add(index);
    }
    expect(greetingCount).toBe(10);
    expect(seen.size).toBe(10);
  });
});
