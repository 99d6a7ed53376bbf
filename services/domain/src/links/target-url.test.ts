import { describe, expect, it } from 'vitest';
import { checkTargetUrl } from './target-url';

const own = ['http://localhost:3000', 'https://snip.example.com'];
const invalid = (url: string) => {
  try {
    checkTargetUrl(url, own);
  } catch (error) {
    return error as { code: string; field: string; message: string };
  }
  return null;
};

describe('target URL rules', () => {
  it('accepts http and https URLs of public domains and addresses, normalised', () => {
    expect(checkTargetUrl('  https://Example.com/a b?x=1#top ', own)).toBe(
      'https://example.com/a%20b?x=1#top',
    );
    expect(checkTargetUrl('http://a.b.co.uk', own)).toBe('http://a.b.co.uk/');
    expect(checkTargetUrl('https://someone.github.io/page', own)).toBe('https://someone.github.io/page');
    expect(checkTargetUrl('http://8.8.8.8/dns', own)).toBe('http://8.8.8.8/dns');
    expect(checkTargetUrl('https://[2001:4860:4860::8888]/', own)).toBe('https://[2001:4860:4860::8888]/');
    expect(checkTargetUrl('https://snip.example.com/home', own)).toBe('https://snip.example.com/home');
  });

  it('gives https:// to an address typed without a scheme, and checks it as any other', () => {
    expect(checkTargetUrl(' example.com/x ', own)).toBe('https://example.com/x');
    expect(checkTargetUrl('www.example.com:8443/a', own)).toBe('https://www.example.com:8443/a');
    expect(invalid('snip.example.com/s/abc1234')?.message).toBe(
      'A short link of this site cannot be shortened again',
    );
    expect(invalid('localhost:3000/x')?.message).toBe('This URL does not point to a public website');
  });

  it.each([
    ['ftp://example.com/file', 'Only http and https URLs can be shortened'],
    ['javascript:alert(1)', 'Only http and https URLs can be shortened'],
    ['not a url', 'This is not a valid URL'],
    ['', 'Enter the URL to shorten'],
    ['http://localhost:8080/', 'This URL does not point to a public website'],
    ['http://intranet/', 'This URL does not point to a public website'],
    ['http://foo.invalid/', 'This URL does not point to a public website'],
    ['http://10.0.0.1/', 'This URL does not point to a public website'],
    ['http://192.168.1.10/', 'This URL does not point to a public website'],
    ['http://127.0.0.1/', 'This URL does not point to a public website'],
    ['http://169.254.169.254/latest/meta-data', 'This URL does not point to a public website'],
    ['http://[::1]/', 'This URL does not point to a public website'],
    ['http://[fe80::1]/', 'This URL does not point to a public website'],
    ['https://user:pass@example.com/', 'URLs with a user name or password cannot be shortened'],
    ['https://snip.example.com/s/abc1234', 'A short link of this site cannot be shortened again'],
    ['http://localhost:3000/s/abc', 'A short link of this site cannot be shortened again'],
  ])('refuses %s with 400 INVALID_URL', (url, message) => {
    expect(invalid(url)).toMatchObject({ code: 'INVALID_URL', field: 'originalUrl', message });
  });

  it.each([
    'https://snip.example.com./s/abc1234',
    'https://snip.example.com../s/abc1234',
    'https://SNIP.Example.COM/s/abc1234',
    'https://snip.example.com/%73/abc1234',
    'https://snip.example.com:443/s/abc1234',
    'https://snip.example.com:8443/s/abc1234',
    'http://snip.example.com/s/abc1234',
    'https://snip.example.com//s/abc1234',
    'https://snip.example.com/x/../s/abc1234',
    'https://snip.example.com/s/%61bc1234?utm=1#top',
    'http://localhost:3000/%73/abc',
  ])('refuses %s: the same short link, written another way', (url) => {
    expect(invalid(url)).toMatchObject({
      code: 'INVALID_URL',
      message: 'A short link of this site cannot be shortened again',
    });
  });

  it('refuses the IDN forms of an IDN site, Unicode or punycode, in any case', () => {
    const idn = ['https://bücher.example'];
    for (const url of [
      'https://bücher.example/s/abc1234',
      'https://BÜCHER.example./s/abc1234',
      'https://xn--bcher-kva.example/%73/abc1234',
      'https://ｂücher.example/s/abc1234',
    ]) {
      expect(() => checkTargetUrl(url, idn), url).toThrow(
        'A short link of this site cannot be shortened again',
      );
    }
  });

  it('accepts what the redirect does not answer: other paths of the site, `/S/` (routes are case-sensitive), `/s%2F`', () => {
    for (const url of [
      'https://snip.example.com/S/abc1234',
      'https://snip.example.com/s%2Fabc1234',
      'https://snip.example.com/home',
      'https://snip.example.com.evil.com/s/abc1234',
    ]) {
      expect(checkTargetUrl(url, own)).toBe(new URL(url).href);
    }
  });

  it('refuses URLs over 2048 characters', () => {
    expect(invalid(`https://example.com/${'a'.repeat(2030)}`)?.code).toBe('INVALID_URL');
    expect(checkTargetUrl(`https://example.com/${'a'.repeat(2000)}`, own)).toHaveLength(2020);
  });
});
