import type { Link } from '@sniplink/contracts';
import { describe, expect, it } from 'vitest';
import { linksCsv, sortLinks } from './linkOrder';

const link = (shortCode: string, title: string | null, clickCount: number): Link => ({
  id: shortCode,
  title,
  originalUrl: `https://example.com/${shortCode}`,
  shortCode,
  shortUrl: `https://snip.example/s/${shortCode}`,
  clickCount,
  createdAt: '2026-11-22T10:00:00.000Z',
  hasPassword: false,
  expiresAt: null,
  maxClicks: null,
  clicksUsed: null,
  fallbackUrl: null,
  paused: false,
  tags: [],
  rules: [],
  status: 'active',
  pendingApproval: false,
});

// Newest first, as the server answers.
const links = [link('c3', 'banana', 2), link('b2', null, 9), link('a1', 'Äpfel', 2)];

describe('sortLinks', () => {
  it('keeps the newest first by default', () => {
    expect(sortLinks(links, undefined).map((l) => l.shortCode)).toEqual(['c3', 'b2', 'a1']);
  });

  it('puts the most clicked first, ties newest first', () => {
    expect(sortLinks(links, 'clicks').map((l) => l.shortCode)).toEqual(['b2', 'c3', 'a1']);
  });

  it('orders A-Z by title (else the code), ignoring case and accents', () => {
    expect(sortLinks(links, 'title').map((l) => l.shortCode)).toEqual(['a1', 'b2', 'c3']);
  });
});

describe('linksCsv', () => {
  it('quotes what needs it and keeps a spreadsheet from running a title as a formula', () => {
    const csv = linksCsv([link('x1', 'Sale, "spring"', 3), link('x2', '=HYPERLINK("evil")', 0)]);
    expect(csv.split('\r\n')).toEqual([
      'Title,Short URL,Original URL,Clicks,Created',
      '"Sale, ""spring""",https://snip.example/s/x1,https://example.com/x1,3,2026-11-22T10:00:00.000Z',
      `"'=HYPERLINK(""evil"")",https://snip.example/s/x2,https://example.com/x2,0,2026-11-22T10:00:00.000Z`,
      '',
    ]);
  });
});
