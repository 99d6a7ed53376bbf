import { describe, expect, it } from 'vitest';
import { expiresIn, linkNotes } from './linkStatus';

const now = new Date('2026-11-28T12:00:00Z');
const inMs = (ms: number) => new Date(now.getTime() + ms).toISOString();
const hour = 3_600_000;
const day = 24 * hour;

type Controls = Parameters<typeof linkNotes>[0];
const plain: Controls = {
  status: 'active',
  paused: false,
  expiresAt: null,
  maxClicks: null,
  clicksUsed: null,
  hasPassword: false,
};
const texts = (link: Partial<Controls>) =>
  linkNotes({ ...plain, ...link }, now, 'en-US').map((note) => note.text);

describe('the words a link card says about its controls', () => {
  it('says nothing of a link without controls', () => {
    expect(texts({})).toEqual([]);
  });

  it('counts down the expiry in the largest unit that reads well', () => {
    expect(texts({ expiresAt: inMs(3 * day) })).toEqual(['Expires in 3 days']);
    expect(texts({ expiresAt: inMs(5 * hour + 10 * 60_000) })).toEqual(['Expires in 5 hours']);
    expect(texts({ expiresAt: inMs(90_000) })).toEqual(['Expires in 2 minutes']);
    expect(texts({ expiresAt: inMs(10_000) })).toEqual(['Expires in 1 minute']);
  });

  it('gives the date of an expiry more than a month away, with the year only when it is not this one', () => {
    expect(expiresIn(new Date('2026-12-30T12:00:00Z'), now, 'en-US')).toBe('on December 30');
    expect(expiresIn(new Date('2027-03-12T12:00:00Z'), now, 'en-US')).toBe('on March 12, 2027');
  });

  it('says how many of the limited clicks are left', () => {
    expect(texts({ maxClicks: 10, clicksUsed: 7 })).toEqual(['3 of 10 clicks left']);
    expect(texts({ maxClicks: 1, clicksUsed: 0 })).toEqual(['1 of 1 click left']);
    expect(texts({ expiresAt: inMs(3 * day), maxClicks: 10, clicksUsed: 0 })).toEqual([
      'Expires in 3 days',
      '10 of 10 clicks left',
    ]);
  });

  it('says Expired once the time has passed or the clicks are used up, even before the list is reloaded', () => {
    expect(texts({ expiresAt: inMs(-1000) })).toEqual(['Expired']);
    expect(texts({ maxClicks: 10, clicksUsed: 10 })).toEqual(['Expired']);
    expect(texts({ status: 'expired' })).toEqual(['Expired']);
  });

  it('says Paused instead of the expiry, and Password for a protected link', () => {
    expect(texts({ paused: true, status: 'paused', expiresAt: inMs(day), hasPassword: true })).toEqual([
      'Paused',
      'Password',
    ]);
    expect(texts({ hasPassword: true })).toEqual(['Password']);
  });
});
