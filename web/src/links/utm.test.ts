import { describe, expect, it } from 'vitest';
import { hasUtm, noUtm, splitUtm, withUtm } from './utm';

const utm = (values: Partial<typeof noUtm>) => ({ ...noUtm, ...values });

describe('withUtm: the target with its campaign parameters', () => {
  it('adds the filled ones in the usual order and drops the empty ones', () => {
    expect(
      withUtm('https://shop.example/spring', utm({ campaign: 'spring', source: 'news', term: '' })),
    ).toBe('https://shop.example/spring?utm_source=news&utm_campaign=spring');
  });

  it('keeps the target as it is when nothing is filled', () => {
    expect(withUtm('https://shop.example/a?b=1#top', noUtm)).toBe('https://shop.example/a?b=1#top');
    expect(withUtm('https://shop.example/a', utm({ source: '   ' }))).toBe('https://shop.example/a');
  });

  it('keeps the existing parameters as written, after them the new ones', () => {
    expect(withUtm('https://shop.example/?a=1&q=b%20c&flag', utm({ medium: 'email' }))).toBe(
      'https://shop.example/?a=1&q=b%20c&flag&utm_medium=email',
    );
  });

  it('puts the parameters before the fragment', () => {
    expect(withUtm('https://shop.example/p#x', utm({ source: 'ig' }))).toBe(
      'https://shop.example/p?utm_source=ig#x',
    );
    expect(withUtm('https://shop.example/p?a=1#x?y', utm({ source: 'ig' }))).toBe(
      'https://shop.example/p?a=1&utm_source=ig#x?y',
    );
  });

  it('replaces an existing utm value where it stands rather than adding a second one', () => {
    expect(
      withUtm(
        'https://shop.example/?utm_source=old&a=1&utm_source=older',
        utm({ source: 'new', medium: 'cpc' }),
      ),
    ).toBe('https://shop.example/?utm_source=new&a=1&utm_medium=cpc');
    // Left empty, the target's own value stays.
    expect(withUtm('https://shop.example/?utm_source=old', utm({ medium: 'cpc' }))).toBe(
      'https://shop.example/?utm_source=old&utm_medium=cpc',
    );
  });

  it('percent-encodes spaces, Unicode and reserved characters, trimmed', () => {
    expect(
      withUtm('https://shop.example/', utm({ campaign: ' spring sale ', content: 'café & co/=?' })),
    ).toBe('https://shop.example/?utm_campaign=spring%20sale&utm_content=caf%C3%A9%20%26%20co%2F%3D%3F');
  });
});

describe('splitUtm: the target and its campaign parameters apart', () => {
  it('takes the utm values out, decoded, and keeps the rest as written', () => {
    expect(splitUtm('https://shop.example/p?a=1&utm_source=news&utm_campaign=spring%20sale+2#x')).toEqual({
      url: 'https://shop.example/p?a=1#x',
      utm: utm({ source: 'news', campaign: 'spring sale 2' }),
    });
  });

  it('drops the question mark when only utm parameters were there, and takes a repeated one once', () => {
    expect(splitUtm('https://shop.example/?utm_medium=cpc&utm_medium=email')).toEqual({
      url: 'https://shop.example/',
      utm: utm({ medium: 'cpc' }),
    });
  });

  it('is undone by withUtm', () => {
    const target = 'https://shop.example/p?a=1&utm_source=news&utm_term=r%C3%A9duction#x';
    const { url, utm: values } = splitUtm(target);
    expect(withUtm(url, values)).toBe(target);
  });

  it('leaves a target without parameters alone', () => {
    expect(splitUtm('https://shop.example/p')).toEqual({ url: 'https://shop.example/p', utm: noUtm });
    expect(hasUtm(noUtm)).toBe(false);
    expect(hasUtm(utm({ term: 'x' }))).toBe(true);
  });
});
