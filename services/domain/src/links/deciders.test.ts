import {
  FREE_LINK_LIMIT,
  type LinkEvent,
  PRO_MONTHLY_LINK_LIMIT,
  type ShortCodeEvent,
} from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { userDecider } from '../accounts/decide';
import type { UserStreamEvent } from '../accounts/user';
import { linkDecider } from './link';
import { shortCodeDecider } from './short-code';

const ada = '01890000-0000-7000-8000-00000000000a';
const bob = '01890000-0000-7000-8000-00000000000b';
const link1 = '01890000-0000-7000-8000-000000000001';
const link2 = '01890000-0000-7000-8000-000000000002';

describe('short code decider', () => {
  const given = specFor(shortCodeDecider);
  const claimed: ShortCodeEvent = {
    type: 'ShortCodeClaimed',
    data: { code: 'Shop', ownerId: ada, linkId: link1 },
  };

  it('gives a free code to the first claim, and lets that claim be retried', () => {
    given([]).when({ type: 'ClaimCode', code: 'Shop', ownerId: ada, linkId: link1 }).then([claimed]);
    given([claimed]).when({ type: 'ClaimCode', code: 'shop', ownerId: ada, linkId: link1 }).then([]);
  });

  it('refuses a code in use, to anyone, with SHORT_CODE_TAKEN', () => {
    given([claimed])
      .when({ type: 'ClaimCode', code: 'shop', ownerId: bob, linkId: link2 })
      .thenThrows({ code: 'SHORT_CODE_TAKEN', status: 409 });
    given([claimed])
      .when({ type: 'ClaimCode', code: 'shop', ownerId: ada, linkId: link2 })
      .thenThrows({ code: 'SHORT_CODE_TAKEN' });
  });

  it('keeps a code whose link was clicked for its account, and never gives it to another', () => {
    const retired: ShortCodeEvent = { type: 'ShortCodeRetired', data: { linkId: link1, reason: 'clicked' } };
    given([claimed]).when({ type: 'GiveUpCode', linkId: link1, clicks: 'counted' }).then([retired]);
    given([claimed, retired])
      .when({ type: 'ClaimCode', code: 'shop', ownerId: bob, linkId: link2 })
      .thenThrows({ code: 'SHORT_CODE_TAKEN' });
    given([claimed, retired])
      .when({ type: 'ClaimCode', code: 'shop', ownerId: ada, linkId: link2 })
      .then([{ type: 'ShortCodeClaimed', data: { code: 'shop', ownerId: ada, linkId: link2 } }]);
  });

  it('frees a code given up before anyone followed it: any account may claim it', () => {
    const released: ShortCodeEvent = {
      type: 'ShortCodeReleased',
      data: { linkId: link1, reason: 'never-clicked' },
    };
    given([claimed]).when({ type: 'GiveUpCode', linkId: link1, clicks: 'none' }).then([released]);
    given([claimed, released])
      .when({ type: 'ClaimCode', code: 'shop', ownerId: bob, linkId: link2 })
      .then([{ type: 'ShortCodeClaimed', data: { code: 'shop', ownerId: bob, linkId: link2 } }]);
  });

  it('keeps a code when its clicks are not all counted yet (when in doubt, kept)', () => {
    given([claimed])
      .when({ type: 'GiveUpCode', linkId: link1, clicks: 'unconfirmed' })
      .then([{ type: 'ShortCodeRetired', data: { linkId: link1, reason: 'unconfirmed' } }]);
  });

  it('keeps a code that was clicked on an earlier link, even when its latest link was not', () => {
    const kept: ShortCodeEvent[] = [
      claimed,
      { type: 'ShortCodeRetired', data: { linkId: link1, reason: 'clicked' } },
      { type: 'ShortCodeClaimed', data: { code: 'shop', ownerId: ada, linkId: link2 } },
    ];
    given(kept)
      .when({ type: 'GiveUpCode', linkId: link2, clicks: 'none' })
      .then([{ type: 'ShortCodeRetired', data: { linkId: link2, reason: 'clicked-before' } }]);
    // Retired before reasons were recorded: kept as it was then.
    given([claimed, { type: 'ShortCodeRetired', data: { linkId: link1 } }])
      .when({ type: 'ClaimCode', code: 'shop', ownerId: bob, linkId: link2 })
      .thenThrows({ code: 'SHORT_CODE_TAKEN' });
  });

  it('ignores a give-up by a link that does not hold the code (a retried or stale one)', () => {
    given([claimed]).when({ type: 'GiveUpCode', linkId: link2, clicks: 'none' }).then([]);
    given([]).when({ type: 'GiveUpCode', linkId: link1, clicks: 'counted' }).then([]);
  });

  it('frees a claim whose link never came to be', () => {
    const released: ShortCodeEvent = {
      type: 'ShortCodeReleased',
      data: { linkId: link1, reason: 'abandoned' },
    };
    given([claimed]).when({ type: 'ReleaseCode', linkId: link1 }).then([released]);
    given([claimed, released])
      .when({ type: 'ClaimCode', code: 'shop', ownerId: bob, linkId: link2 })
      .then([{ type: 'ShortCodeClaimed', data: { code: 'shop', ownerId: bob, linkId: link2 } }]);
  });

  it('moves a claimed demo code to the account, which then keeps it for good', () => {
    const visitor = 'visitor-AAAAAAAAAAAAAAAAAAAAAA';
    const demo: ShortCodeEvent = {
      type: 'ShortCodeClaimed',
      data: { code: 'abc1234', ownerId: visitor, linkId: link1 },
    };
    const moved: ShortCodeEvent = {
      type: 'ShortCodeOwnerChanged',
      data: { ownerId: ada, previousOwnerId: visitor },
    };
    given([demo]).when({ type: 'TransferCode', ownerId: visitor, newOwnerId: ada }).then([moved]);
    given([demo, moved]).when({ type: 'TransferCode', ownerId: visitor, newOwnerId: ada }).then([]);
    const retired: ShortCodeEvent = { type: 'ShortCodeRetired', data: { linkId: link1, reason: 'clicked' } };
    given([demo, moved, retired])
      .when({ type: 'ClaimCode', code: 'abc1234', ownerId: visitor, linkId: link2 })
      .thenThrows({ code: 'SHORT_CODE_TAKEN' });
    given([demo, moved, retired])
      .when({ type: 'ClaimCode', code: 'abc1234', ownerId: ada, linkId: link2 })
      .then([{ type: 'ShortCodeClaimed', data: { code: 'abc1234', ownerId: ada, linkId: link2 } }]);
  });
});

describe('link decider', () => {
  const given = specFor(linkDecider);
  const created: LinkEvent = {
    type: 'LinkCreated',
    data: {
      linkId: link1,
      ownerId: ada,
      code: 'abc1234',
      originalUrl: 'https://example.com/',
      title: null,
      origin: 'dashboard',
    },
  };

  it('answers "not found" to anyone but the owner, and after deletion', () => {
    given([created])
      .when({ type: 'ChangeLink', ownerId: bob, title: 'x' })
      .thenThrows({ code: 'NOT_FOUND', status: 404 });
    given([created, { type: 'LinkDeleted', data: {} }])
      .when({ type: 'DeleteLink', ownerId: ada })
      .thenThrows({ status: 404 });
    given([]).when({ type: 'DeleteLink', ownerId: ada }).thenThrows({ status: 404 });
  });

  it('records only what changes, all of an edit in one append', () => {
    given([created]).when({ type: 'ChangeLink', ownerId: ada, title: null }).then([]);
    given([created])
      .when({ type: 'ChangeLink', ownerId: ada, title: 'Shop' })
      .then([{ type: 'LinkRetitled', data: { title: 'Shop' } }]);
    given([created]).when({ type: 'ChangeLink', ownerId: ada, originalUrl: 'https://example.com/' }).then([]);
    given([created])
      .when({ type: 'ChangeLink', ownerId: ada, code: 'spring' })
      .then([{ type: 'LinkCodeChanged', data: { code: 'spring', previousCode: 'abc1234' } }]);
    given([created])
      .when({
        type: 'ChangeLink',
        ownerId: ada,
        title: 'Shop',
        originalUrl: 'https://example.org/',
        code: 'abc1234',
      })
      .then([
        { type: 'LinkRetitled', data: { title: 'Shop' } },
        { type: 'LinkRetargeted', data: { originalUrl: 'https://example.org/' } },
      ]);
  });

  it('records each control that changes, on a create and on an edit, and nothing for one already so', () => {
    const passwordId = '01890000-0000-7000-8000-0000000000f1';
    const { linkId, code, originalUrl, title, origin } = created.data as Extract<
      LinkEvent,
      { type: 'LinkCreated' }
    >['data'];
    given([])
      .when({
        type: 'CreateLink',
        linkId,
        ownerId: ada,
        code,
        originalUrl,
        title,
        origin,
        controls: { passwordId, paused: false, maxClicks: 5, tags: ['sales'] },
      })
      .then([
        created,
        { type: 'LinkPasswordSet', data: { passwordId } },
        { type: 'LinkClickLimitChanged', data: { maxClicks: 5 } },
        { type: 'LinkTagsChanged', data: { tags: ['sales'] } },
      ]);
    const controlled: LinkEvent[] = [
      created,
      { type: 'LinkPasswordSet', data: { passwordId } },
      { type: 'LinkPaused', data: {} },
      { type: 'LinkExpiryChanged', data: { expiresAt: '2030-01-01T00:00:00.000Z' } },
    ];
    given(controlled)
      .when({
        type: 'ChangeLink',
        ownerId: ada,
        controls: { paused: true, expiresAt: '2030-01-01T00:00:00.000Z', passwordId, tags: [] },
      })
      .then([]);
    given(controlled)
      .when({
        type: 'ChangeLink',
        ownerId: ada,
        controls: { passwordId: null, paused: false, expiresAt: null, fallbackUrl: 'https://example.org/' },
      })
      .then([
        { type: 'LinkPasswordRemoved', data: {} },
        { type: 'LinkExpiryChanged', data: { expiresAt: null } },
        { type: 'LinkFallbackChanged', data: { fallbackUrl: 'https://example.org/' } },
        { type: 'LinkUnpaused', data: {} },
      ]);
  });

  it('records targeting rules as one event with the whole list, and none when they are as they were', () => {
    const rules = [
      { when: { country: ['GB'] }, url: 'https://example.co.uk/' },
      { when: { device: ['mobile' as const] }, url: 'https://m.example.com/' },
    ];
    const changed: LinkEvent = { type: 'LinkRulesChanged', data: { rules } };
    given([created]).when({ type: 'ChangeLink', ownerId: ada, controls: { rules } }).then([changed]);
    given([created, changed]).when({ type: 'ChangeLink', ownerId: ada, controls: { rules } }).then([]);
    // The order decides which rule wins: a reordering is a change.
    const reordered = [...rules].reverse();
    given([created, changed])
      .when({ type: 'ChangeLink', ownerId: ada, controls: { rules: reordered } })
      .then([{ type: 'LinkRulesChanged', data: { rules: reordered } }]);
    given([created, changed])
      .when({ type: 'ChangeLink', ownerId: ada, controls: { rules: [] } })
      .then([{ type: 'LinkRulesChanged', data: { rules: [] } }]);
    given([created])
      .when({ type: 'ChangeLink', ownerId: ada, controls: { rules: [] } })
      .then([]);
  });

  it('moves a demo link to its claimer; a retried claim continues, another is "not found"', () => {
    const visitor = 'visitor-AAAAAAAAAAAAAAAAAAAAAA';
    const demo: LinkEvent = { ...created, data: { ...created.data, ownerId: visitor, origin: 'demo' } };
    const moved: LinkEvent = { type: 'LinkOwnerChanged', data: { ownerId: ada, previousOwnerId: visitor } };
    given([demo]).when({ type: 'TransferLink', ownerId: visitor, newOwnerId: ada }).then([moved]);
    given([demo, moved]).when({ type: 'TransferLink', ownerId: visitor, newOwnerId: ada }).then([]);
    given([demo, moved])
      .when({ type: 'TransferLink', ownerId: visitor, newOwnerId: bob })
      .thenThrows({ code: 'NOT_FOUND', status: 404 });
    given([demo, moved])
      .when({ type: 'ChangeLink', ownerId: ada, title: 'Mine' })
      .then([{ type: 'LinkRetitled', data: { title: 'Mine' } }]);
    given([demo, { type: 'LinkDeleted', data: {} }])
      .when({ type: 'TransferLink', ownerId: visitor, newOwnerId: ada })
      .thenThrows({ status: 404 });
  });
});

describe('link allowance on the user stream', () => {
  const given = specFor(userDecider);
  const registered: UserStreamEvent = {
    type: 'UserRegistered',
    data: {
      userId: ada,
      email: 'enc:v1:x',
      firstName: null,
      lastName: null,
      profileImageUrl: null,
      emailHash: 'h',
      via: 'password',
    },
  };
  const pro: UserStreamEvent = {
    type: 'SubscriptionStarted',
    data: { plan: 'monthly', provider: 'operator', reference: null },
  };
  // The allowances in force (the defaults): the service passes the admin's settings with the command.
  const limits = { free: FREE_LINK_LIMIT, proMonthly: PRO_MONTHLY_LINK_LIMIT };
  // The instants the service's clock would read when it sends the command (fixed: the month is what is tested).
  const inNovember = new Date('2026-11-15T12:00:00.000Z');
  const inDecember = new Date('2026-12-01T00:00:00.000Z');
  const taken = (n: number, month = '2026-11'): UserStreamEvent[] =>
    Array.from({ length: n }, (_, i) => ({
      type: 'LinkSlotTaken',
      data: { linkId: `01890000-0000-7000-9000-${String(i).padStart(12, '0')}`, month },
    }));

  it('lets a Free account hold 5 links; a deletion frees a slot', () => {
    given([registered, ...taken(4)])
      .when({ type: 'TakeLinkSlot', linkId: link2, now: inNovember, limits })
      .then([{ type: 'LinkSlotTaken', data: { linkId: link2, month: '2026-11' } }]);
    given([registered, ...taken(5)])
      .when({ type: 'TakeLinkSlot', linkId: link2, now: inDecember, limits })
      .thenThrows({
        code: 'SUBSCRIPTION_REQUIRED',
        status: 403,
      });
    const deleted: UserStreamEvent = {
      type: 'LinkSlotReleased',
      data: { linkId: '01890000-0000-7000-9000-000000000000', month: '2026-11', reason: 'deleted' },
    };
    given([registered, ...taken(5), deleted])
      .when({ type: 'TakeLinkSlot', linkId: link2, now: inNovember, limits })
      .then([{ type: 'LinkSlotTaken', data: { linkId: link2, month: '2026-11' } }]);
  });

  it('lets Pro create 500 a month, deletions not giving any back; a new month starts over', () => {
    const month = [registered, pro, ...taken(500)];
    given(month)
      .when({ type: 'TakeLinkSlot', linkId: link2, now: inNovember, limits })
      .thenThrows({ code: 'MONTHLY_LIMIT_REACHED' });
    given(month)
      .when({ type: 'TakeLinkSlot', linkId: link2, now: inDecember, limits })
      .then([{ type: 'LinkSlotTaken', data: { linkId: link2, month: '2026-12' } }]);
  });

  it('gives the month its count back when a create is abandoned, and continues a retried take', () => {
    const abandoned: UserStreamEvent = {
      type: 'LinkSlotReleased',
      data: { linkId: '01890000-0000-7000-9000-000000000000', month: '2026-11', reason: 'abandoned' },
    };
    given([registered, pro, ...taken(500), abandoned])
      .when({ type: 'TakeLinkSlot', linkId: link2, now: inNovember, limits })
      .then([{ type: 'LinkSlotTaken', data: { linkId: link2, month: '2026-11' } }]);
    given([registered, ...taken(5)])
      .when({ type: 'TakeLinkSlot', linkId: '01890000-0000-7000-9000-000000000003', now: inNovember, limits })
      .then([]);
  });

  it('starts Pro over at the UTC month boundary: 23:59:59 on Jan 31 is January, 00:00:00 on Feb 1 is February', () => {
    const january = [registered, pro, ...taken(500, '2026-01')];
    given(january)
      .when({ type: 'TakeLinkSlot', linkId: link2, now: new Date('2026-01-31T23:59:59.999Z'), limits })
      .thenThrows({ code: 'MONTHLY_LIMIT_REACHED', status: 403 });
    given(january)
      .when({ type: 'TakeLinkSlot', linkId: link2, now: new Date('2026-02-01T00:00:00.000Z'), limits })
      .then([{ type: 'LinkSlotTaken', data: { linkId: link2, month: '2026-02' } }]);
    // Not the server's local time zone: 2026-02-01T00:30+01:00 is still January in UTC.
    given(january)
      .when({ type: 'TakeLinkSlot', linkId: link2, now: new Date('2026-02-01T00:30:00+01:00'), limits })
      .thenThrows({ code: 'MONTHLY_LIMIT_REACHED' });
  });
});
