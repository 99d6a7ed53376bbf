import { describe, expect, it } from 'vitest';
import { signInProblems, signUpProblems } from './authFields';

describe('the sign-in and sign-up fields', () => {
  it('say on each field what is missing', () => {
    expect(signInProblems({ email: ' ', password: '' })).toEqual({
      email: 'Enter your e-mail address',
      password: 'Enter your password',
    });
    expect(signInProblems({ email: 'ada@example.com', password: 'x' })).toEqual({});
  });

  it('ask for an address that looks like one, and a password of 8 characters for a new account', () => {
    expect(signUpProblems({ email: 'ada', password: 'short' })).toEqual({
      email: 'Enter an e-mail address such as name@example.com',
      password: 'Password must be at least 8 characters',
    });
    expect(signUpProblems({ email: ' ada@example.com ', password: 'long enough' })).toEqual({});
  });
});
