import { describe, expect, it } from 'vitest';
import { typedUrlProblem, urlToSend } from './typedUrl';

describe('a typed URL', () => {
  it('is taken without a scheme, trimmed, and sent with https://', () => {
    expect(typedUrlProblem(' example.com/x ')).toBeNull();
    expect(urlToSend(' example.com/x ')).toBe('https://example.com/x');
    expect(urlToSend('http://example.com')).toBe('http://example.com');
  });

  it('says what is wrong, for the field', () => {
    expect(typedUrlProblem('  ')).toBe('Enter the URL to shorten');
    expect(typedUrlProblem('not a url')).toBe('This is not a valid URL');
    expect(typedUrlProblem('ftp://example.com')).toBe('Only http and https URLs can be shortened');
  });
});
