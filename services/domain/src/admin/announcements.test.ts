import type { AnnouncementEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, expect, it } from 'vitest';
import {
  type AnnouncementCommand,
  type AnnouncementContent,
  announcementDecider,
  announcementDismissalsDecider,
  audiencesOf,
  isAnnouncementFor,
} from './announcements';

const given = specFor(announcementDecider);
const givenDismissals = specFor(announcementDismissalsDecider);

const ID = '01890000-0000-7000-8000-0000000000a1';
const content: AnnouncementContent = {
  title: 'Maintenance tonight',
  message: 'Links keep redirecting.',
  type: 'warning',
  targetAudience: 'all',
};
const publish = (changes: Partial<AnnouncementContent> = {}, isActive = true): AnnouncementCommand => ({
  type: 'PublishAnnouncement',
  announcementId: ID,
  content: { ...content, ...changes },
  isActive,
});
const published: AnnouncementEvent = {
  type: 'AnnouncementPublished',
  data: { announcementId: ID, ...content, isActive: true },
};
const switchedOff: AnnouncementEvent = { type: 'AnnouncementSwitchedOff', data: { announcementId: ID } };
const switchedOn: AnnouncementEvent = { type: 'AnnouncementSwitchedOn', data: { announcementId: ID } };
const setActive = (isActive: boolean): AnnouncementCommand => ({
  type: 'SetAnnouncementActive',
  announcementId: ID,
  isActive,
});

describe('announcement decider', () => {
  it('publishes an announcement with its title and message trimmed', () => {
    given([])
      .when(publish({ title: '  Maintenance tonight ', message: '\nLinks keep redirecting.  ' }))
      .then([published]);
  });

  it('publishes one switched off when asked to', () => {
    given([])
      .when(publish({}, false))
      .then([{ ...published, data: { ...published.data, isActive: false } }]);
  });

  it('refuses a blank or too long title or message, naming the field', () => {
    given([])
      .when(publish({ title: '   ' }))
      .thenThrows({ status: 400, field: 'title' });
    given([])
      .when(publish({ title: 'x'.repeat(121) }))
      .thenThrows({ status: 400, field: 'title' });
    given([])
      .when(publish({ message: '' }))
      .thenThrows({ status: 400, field: 'message' });
    given([])
      .when(publish({ message: 'x'.repeat(2_001) }))
      .thenThrows({ status: 400, field: 'message' });
    given([])
      .when(publish({ title: 'x'.repeat(120), message: 'x'.repeat(2_000) }))
      .then([
        {
          type: 'AnnouncementPublished',
          data: { ...published.data, title: 'x'.repeat(120), message: 'x'.repeat(2_000) },
        },
      ]);
  });

  it('publishes an id once', () => {
    given([published]).when(publish()).thenThrows({ status: 409 });
  });

  it('switches off and on again; asking for the state it is in adds nothing', () => {
    given([published]).when(setActive(false)).then([switchedOff]);
    given([published, switchedOff]).when(setActive(false)).then([]);
    given([published, switchedOff]).when(setActive(true)).then([switchedOn]);
    given([published, switchedOff, switchedOn]).when(setActive(true)).then([]);
  });

  it('knows no announcement that was never published', () => {
    given([]).when(setActive(false)).thenThrows({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('audiences', () => {
  const free = { pro: false, admin: false };
  const pro = { pro: true, admin: false };
  const freeAdmin = { pro: false, admin: true };

  it('shows `all` to everyone, `free` to users who are not Pro, `paid` to Pro users, `admin` to admins', () => {
    expect(audiencesOf(free)).toEqual(['all', 'free']);
    expect(audiencesOf(pro)).toEqual(['all', 'paid']);
    expect(audiencesOf(freeAdmin)).toEqual(['all', 'free', 'admin']);
    expect(isAnnouncementFor('paid', free)).toBe(false);
    expect(isAnnouncementFor('free', pro)).toBe(false);
    expect(isAnnouncementFor('admin', pro)).toBe(false);
    expect(isAnnouncementFor('admin', freeAdmin)).toBe(true);
  });
});

describe('announcement dismissals decider', () => {
  it('dismisses an announcement once, for good', () => {
    const dismissed = { type: 'AnnouncementDismissed' as const, data: { announcementId: ID } };
    givenDismissals([]).when({ type: 'DismissAnnouncement', announcementId: ID }).then([dismissed]);
    givenDismissals([dismissed]).when({ type: 'DismissAnnouncement', announcementId: ID }).then([]);
  });
});
