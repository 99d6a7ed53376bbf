import { describe, expect, it } from 'vitest';
import { type Click, clickMessage, readClickMessage } from './clicks';

const click: Click = {
  id: 'AbC-123_xyz9',
  linkId: '0193a1b2-0000-7000-8000-000000000001',
  code: 'summer-sale',
  atMs: Date.parse('2026-11-20T10:11:12.345Z'),
  country: 'DE',
  device: 'mobile',
  browser: 'Samsung Internet',
  os: 'Android',
  referrer: 'news.ycombinator.com',
  bot: false,
};

describe('click messages', () => {
  it('carry a click as a short line keyed by its link, and read back as the same click', () => {
    const message = clickMessage(click);
    expect(message).toEqual({
      key: click.linkId,
      value: `c1|AbC-123_xyz9|summer-sale|${click.atMs}|DE|mobile|Samsung Internet|Android|news.ycombinator.com|0`,
    });
    expect(readClickMessage(message.key, message.value)).toEqual(click);
    const bot = clickMessage({ ...click, bot: true, device: 'desktop' });
    expect(readClickMessage(bot.key, bot.value)).toMatchObject({ bot: true, device: 'desktop' });
  });

  it('carry the targeting rule that sent a click as a sixth label, and read lines without one as the main target', () => {
    const ruled = clickMessage({ ...click, rule: 3 });
    expect(ruled.value).toBe(
      `c1|AbC-123_xyz9|summer-sale|${click.atMs}|DE|mobile|Samsung Internet|Android|news.ycombinator.com|r3|0`,
    );
    expect(readClickMessage(ruled.key, ruled.value)).toEqual({ ...click, rule: 3 });
    expect(readClickMessage(ruled.key, ruled.value.replace('|r3|', '|x3|'))).toBeUndefined();
    const plain = clickMessage(click);
    expect(readClickMessage(plain.key, plain.value)).not.toHaveProperty('rule');
  });

  it('keep the separator out of a field, so one odd label cannot shift the others', () => {
    const odd = clickMessage({ ...click, browser: 'Some|Browser', code: 'a|b' });
    expect(readClickMessage(odd.key, odd.value)).toEqual({ ...click, browser: 'Some/Browser', code: 'a/b' });
  });

  it('read a click the stream carried as a JSON object before the line format', () => {
    const { atMs, ...rest } = click;
    const legacy = { ...rest, at: '2026-11-20T10:11:12.345Z' };
    expect(readClickMessage(click.linkId, legacy)).toEqual(click);
    expect(readClickMessage(click.linkId, { ...legacy, at: 'yesterday' })).toBeUndefined();
    expect(readClickMessage(click.linkId, { ...legacy, device: 'fridge' })).toBeUndefined();
  });

  it.each([
    ['another format', (line: string) => line.replace(/^c1\|/, 'c2|')],
    ['a field missing', (line: string) => line.replace(/\|0$/, '')],
    ['a field too many', (line: string) => `${line}|extra`],
    ['no id', (line: string) => line.replace('AbC-123_xyz9', '')],
    ['a time that is no whole number', (line: string) => line.replace(String(click.atMs), '12.5')],
    ['a time that is no number', (line: string) => line.replace(String(click.atMs), 'noon')],
    ['no time', (line: string) => line.replace(String(click.atMs), '')],
    ['four labels', (line: string) => line.replace('|Android|', '|')],
    ['an unknown device', (line: string) => line.replace('mobile', 'watch')],
    ['a bot flag that is neither 0 nor 1', (line: string) => line.replace(/\|0$/, '|yes')],
  ])('refuse a line with %s', (_, spoil) => {
    const { key, value } = clickMessage(click);
    expect(readClickMessage(key, spoil(value))).toBeUndefined();
  });

  it('refuse a key that is no link id, and values that are neither a line nor a click object', () => {
    const { value } = clickMessage(click);
    expect(readClickMessage('not-a-uuid', value)).toBeUndefined();
    for (const junk of [null, 42, ['c1'], { not: 'a click' }])
      expect(readClickMessage(click.linkId, junk)).toBeUndefined();
  });
});
