import { clickMessage, readClickMessage } from '@sniplink/contracts';
import Bowser from 'bowser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentCacheSize, type ClickInput, clearAgentCache, describeClick } from './click-description';

/** Real user agents, as the browsers and tools send them. */
const agents = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  ipadSafari:
    'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  androidChromePhone:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  samsungInternet:
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  chromeOs:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  curl: 'curl/8.5.0',
  nodeFetch: 'node',
  headlessChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
} as const;

const base: ClickInput = {
  id: 'qK3x9_Zr-Tb2a1',
  linkId: '0193a1b2-0000-7000-8000-000000000001',
  code: 'abc123',
  atMs: Date.parse('2025-01-02T03:04:05.678Z'),
  userAgent: agents.chromeWindows,
  referer: undefined,
  clientIp: '8.8.8.8',
};

function describe_(overrides: Partial<ClickInput>) {
  return describeClick({ ...base, ...overrides });
}

beforeEach(() => clearAgentCache());
afterEach(() => vi.restoreAllMocks());

describe('describeClick', () => {
  it('builds a click whose message reads back as itself, carrying the ids, code and time, and never the IP', () => {
    const click = describeClick(base);
    const message = clickMessage(click);
    expect(readClickMessage(message.key, message.value)).toEqual(click);
    expect(click).toEqual({
      id: base.id,
      linkId: base.linkId,
      code: 'abc123',
      atMs: Date.parse('2025-01-02T03:04:05.678Z'),
      country: 'US',
      device: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
      referrer: 'direct',
      bot: false,
    });
    expect(JSON.stringify([click, message])).not.toContain('8.8.8.8');
  });
});

describe('user agent', () => {
  it.each([
    ['Chrome on Windows', agents.chromeWindows, 'desktop', 'Chrome', 'Windows', false],
    ['Safari on macOS', agents.safariMac, 'desktop', 'Safari', 'macOS', false],
    ['Safari on iPhone', agents.iphoneSafari, 'mobile', 'Safari', 'iOS', false],
    ['Safari on iPad', agents.ipadSafari, 'tablet', 'Safari', 'iOS', false],
    ['Chrome on an Android phone', agents.androidChromePhone, 'mobile', 'Chrome', 'Android', false],
    ['Chrome on an Android tablet', agents.androidTablet, 'tablet', 'Chrome', 'Android', false],
    ['Firefox on Linux', agents.firefoxLinux, 'desktop', 'Firefox', 'Linux', false],
    ['Edge on Windows', agents.edgeWindows, 'desktop', 'Edge', 'Windows', false],
    ['Samsung Internet', agents.samsungInternet, 'mobile', 'Samsung Internet', 'Android', false],
    ['Chrome on a Chromebook', agents.chromeOs, 'desktop', 'Chrome', 'Chrome OS', false],
    ['Googlebot', agents.googlebot, 'desktop', 'Googlebot', 'Unknown', true],
    ['Googlebot smartphone', agents.googlebotSmartphone, 'desktop', 'Googlebot', 'Android', true],
    ['curl', agents.curl, 'desktop', 'Unknown', 'Unknown', true],
    ["Node's fetch", agents.nodeFetch, 'desktop', 'Unknown', 'Unknown', true],
    ['HeadlessChrome', agents.headlessChrome, 'desktop', 'Chrome', 'Linux', true],
    ['no user agent', undefined, 'desktop', 'Unknown', 'Unknown', true],
    ['an empty user agent', '', 'desktop', 'Unknown', 'Unknown', true],
    ['a blank user agent', '   ', 'desktop', 'Unknown', 'Unknown', true],
  ] as const)('%s', (_name, userAgent, device, browser, os, bot) => {
    const click = describe_({ userAgent });
    expect({ device: click.device, browser: click.browser, os: click.os, bot: click.bot }).toEqual({
      device,
      browser,
      os,
      bot,
    });
  });

  it('parses a user agent once, then answers it from the cache', () => {
    const parse = vi.spyOn(Bowser, 'parse');
    const first = describe_({ userAgent: agents.edgeWindows });
    const second = describe_({ userAgent: agents.edgeWindows, id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c' });
    expect(parse).toHaveBeenCalledTimes(1);
    expect(second).toEqual({ ...first, id: second.id });
  });

  it('keeps at most 1,000 user agents, evicting the least recently used', () => {
    const parse = vi.spyOn(Bowser, 'parse');
    const other = (i: number) => `${agents.firefoxLinux} ${i}`;
    describe_({ userAgent: agents.chromeWindows });
    for (let i = 0; i < 999; i++) describe_({ userAgent: other(i) });
    describe_({ userAgent: agents.chromeWindows }); // a hit: Chrome becomes the youngest entry
    for (let i = 999; i < 1_499; i++) describe_({ userAgent: other(i) });
    expect(agentCacheSize()).toBe(1_000);
    expect(parse).toHaveBeenCalledTimes(1_500);

    describe_({ userAgent: agents.chromeWindows }); // survived 500 evictions thanks to its hit
    expect(parse).toHaveBeenCalledTimes(1_500);
    describe_({ userAgent: other(0) }); // the oldest were evicted
    expect(parse).toHaveBeenCalledTimes(1_501);
  });

  it('looks only at the head of an absurdly long user agent, quickly', () => {
    const huge = `${agents.safariMac} ${'x'.repeat(16_000)}`;
    const started = performance.now();
    const click = describe_({ userAgent: huge });
    expect(performance.now() - started).toBeLessThan(50);
    expect(click).toMatchObject({ browser: 'Safari', os: 'macOS', device: 'desktop', bot: false });
  });
});

describe('country', () => {
  it.each([
    ['8.8.8.8', 'US'],
    ['81.2.69.160', 'GB'],
    ['2001:4860:4860::8888', 'US'],
    ['::ffff:8.8.8.8', 'US'],
    ['::FFFF:81.2.69.160', 'GB'],
    ['0:0:0:0:0:ffff:81.2.69.160', 'GB'],
    ['::ffff:5102:45a0', 'GB'], // 81.2.69.160 in hex groups
    ['172.32.0.1', 'US'], // just past 172.16.0.0/12
    ['11.0.0.1', 'US'], // just past 10.0.0.0/8
    [' 8.8.8.8 ', 'US'],
  ])('%s is in %s', (clientIp, country) => {
    expect(describe_({ clientIp }).country).toBe(country);
  });

  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.19.255.1',
    '192.168.1.1',
    '127.0.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1%eth0',
    'fd00::1',
    'fc00::1',
    'febf::1',
    'ff02::1',
    '::1.2.3.4',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '2001:db8::1',
    'garbage',
    '8.8.8',
    '999.1.1.1',
    '',
    undefined,
  ])('%s is Unknown', (clientIp) => {
    expect(describe_({ clientIp }).country).toBe('Unknown');
  });
});

describe('referrer', () => {
  it.each([
    ['https://www.google.com/search?q=x', 'google.com'],
    ['https://t.co/abc', 't.co'],
    ['http://News.YCombinator.com/item?id=1', 'news.ycombinator.com'],
    ['https://WWW.Example.ORG.', 'example.org'],
    ['https://m.facebook.com/', 'm.facebook.com'],
    ['https://www2.example.com/', 'www2.example.com'],
    ['https://user:secret@www.example.com:8443/path', 'example.com'],
    ['https://[2001:db8::1]/', '[2001:db8::1]'],
    [undefined, 'direct'],
    ['', 'direct'],
    ['android-app://com.slack', 'direct'],
    ['ftp://files.example.com/x', 'direct'],
    ['about:blank', 'direct'],
    ['not a url', 'direct'],
    ['//www.google.com/', 'direct'],
  ])('%s -> %s', (referer, referrer) => {
    expect(describe_({ referer }).referrer).toBe(referrer);
  });
});
