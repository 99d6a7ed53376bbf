import { describe, expect, it } from 'vitest';
import { withDefaultScheme } from './typed-url';

describe('withDefaultScheme', () => {
  it('gives https:// to an address typed without a scheme, trimmed', () => {
    expect(withDefaultScheme('example.com/x')).toBe('https://example.com/x');
    expect(withDefaultScheme('  www.example.com  ')).toBe('https://www.example.com');
    expect(withDefaultScheme('example.com:8080/x')).toBe('https://example.com:8080/x');
    expect(withDefaultScheme('example.com:8080')).toBe('https://example.com:8080');
    expect(withDefaultScheme('//example.com/x')).toBe('https://example.com/x');
  });

  it('keeps a scheme that is there, also one the target rules refuse', () => {
    expect(withDefaultScheme(' http://example.com ')).toBe('http://example.com');
    expect(withDefaultScheme('HTTPS://example.com')).toBe('HTTPS://example.com');
    expect(withDefaultScheme('ftp://example.com')).toBe('ftp://example.com');
    expect(withDefaultScheme('mailto:someone@example.com')).toBe('mailto:someone@example.com');
    expect(withDefaultScheme('javascript:alert(1)')).toBe('javascript:alert(1)');
  });

  it('leaves nothing as nothing', () => {
    expect(withDefaultScheme('   ')).toBe('');
  });
});
