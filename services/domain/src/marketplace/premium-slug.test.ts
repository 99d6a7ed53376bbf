import type { PremiumSlugEvent, ShortCodeEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { shortCodeDecider } from '../links/short-code';
import { type PremiumSlugFields, premiumSlugDecider } from './premium-slug';

const given = specFor(premiumSlugDecider);
const givenCode = specFor(shortCodeDecider);

const ID = '01890000-0000-7000-8000-0000000000b1';
const LINK = '01890000-0000-7000-8000-0000000000c1';
const fields: PremiumSlugFields = {
  price: 2500,
  category: 'common-words',
  tier: 'standard',
  isAvailable: true,
  stripePriceId: null,
};
const added: PremiumSlugEvent = { type: 'PremiumSlugAdded', data: { slugId: ID, slug: 'deals', ...fields } };
const add = (slug: string, changes: Partial<PremiumSlugFields> = {}) =>
  ({ type: 'AddPremiumSlug', slugId: ID, slug, fields: { ...fields, ...changes } }) as const;

describe('premium slug decider', () => {
  it('stores the slug trimmed and lower-cased', () => {
    given([]).when(add('  DeAls ')).then([added]);
  });

  it('takes 1 to 20 characters of letters, digits, hyphens and underscores', () => {
    given([])
      .when(add('x'))
      .then([{ ...added, data: { ...added.data, slug: 'x' } }]);
    given([])
      .when(add('a-b_c'.padEnd(20, '9')))
      .then([{ ...added, data: { ...added.data, slug: 'a-b_c'.padEnd(20, '9') } }]);
  });

  it('refuses a blank, too long, malformed or reserved slug, naming the field', () => {
    for (const slug of ['', '   ', 'x'.repeat(21), 'two words', 'café', 'a.b', 'admin', 'MarketPlace']) {
      given([]).when(add(slug)).thenThrows({ status: 400, field: 'slug' });
    }
  });

  it('refuses a negative or fractional price', () => {
    given([])
      .when(add('deals', { price: -1 }))
      .thenThrows({ status: 400, field: 'price' });
    given([])
      .when(add('deals', { price: 1.5 }))
      .thenThrows({ status: 400, field: 'price' });
    given([added])
      .when({ type: 'EditPremiumSlug', slugId: ID, changes: { price: -100 } })
      .thenThrows({ status: 400, field: 'price' });
  });

  it('records only the fields an edit changes', () => {
    given([added])
      .when({
        type: 'EditPremiumSlug',
        slugId: ID,
        changes: { price: 2500, tier: 'ultra', isAvailable: false },
      })
      .then([{ type: 'PremiumSlugEdited', data: { slugId: ID, tier: 'ultra', isAvailable: false } }]);
    given([added])
      .when({ type: 'EditPremiumSlug', slugId: ID, changes: { price: 2500 } })
      .then([]);
  });

  it('deletes a listed slug once; a deleted or unknown one is not found', () => {
    const deleted: PremiumSlugEvent = { type: 'PremiumSlugDeleted', data: { slugId: ID, slug: 'deals' } };
    given([added]).when({ type: 'DeletePremiumSlug', slugId: ID }).then([deleted]);
    given([added, deleted]).when({ type: 'DeletePremiumSlug', slugId: ID }).thenThrows({ status: 404 });
    given([]).when({ type: 'EditPremiumSlug', slugId: ID, changes: {} }).thenThrows({ status: 404 });
  });
});

describe('a premium slug in the short-code namespace', () => {
  const reserved: ShortCodeEvent = {
    type: 'ShortCodeReservedForPremiumSlug',
    data: { code: 'deals', slugId: ID },
  };
  const claimed: ShortCodeEvent = {
    type: 'ShortCodeClaimed',
    data: { code: 'deals', ownerId: 'u1', linkId: LINK },
  };

  it('reserves a free code; a retried reservation continues', () => {
    givenCode([]).when({ type: 'ReserveForPremiumSlug', code: 'deals', slugId: ID }).then([reserved]);
    givenCode([reserved]).when({ type: 'ReserveForPremiumSlug', code: 'deals', slugId: ID }).then([]);
  });

  it('keeps links off a reserved code', () => {
    givenCode([reserved])
      .when({ type: 'ClaimCode', code: 'Deals', ownerId: 'u1', linkId: LINK })
      .thenThrows({ status: 409, code: 'SHORT_CODE_TAKEN' });
  });

  it('is refused a code a link holds, or an account keeps after its link was clicked', () => {
    givenCode([claimed])
      .when({ type: 'ReserveForPremiumSlug', code: 'deals', slugId: ID })
      .thenThrows({ status: 409, code: 'CONFLICT', field: 'slug' });
    givenCode([claimed, { type: 'ShortCodeRetired', data: { linkId: LINK, reason: 'clicked' } }])
      .when({ type: 'ReserveForPremiumSlug', code: 'deals', slugId: ID })
      .thenThrows({ status: 409 });
    givenCode([reserved])
      .when({ type: 'ReserveForPremiumSlug', code: 'deals', slugId: '01890000-0000-7000-8000-0000000000b2' })
      .thenThrows({ status: 409, message: 'This slug is already in the premium catalogue' });
  });

  it('frees the code when the slug is deleted: a link may take it then', () => {
    const released: ShortCodeEvent = {
      type: 'ShortCodePremiumSlugReleased',
      data: { slugId: ID, reason: 'deleted' },
    };
    givenCode([reserved])
      .when({ type: 'ReleasePremiumSlug', slugId: ID, reason: 'deleted' })
      .then([released]);
    givenCode([reserved, released])
      .when({ type: 'ClaimCode', code: 'deals', ownerId: 'u1', linkId: LINK })
      .then([claimed]);
  });
});

describe("an owner's target", () => {
  const OWNER = '01890000-0000-7000-8000-0000000000d1';
  const bought: PremiumSlugEvent = {
    type: 'PremiumSlugPurchased',
    data: {
      slugId: ID,
      holdId: '01890000-0000-7000-8000-0000000000e1',
      buyerId: OWNER,
      paymentId: 'pi_1',
      amount: 2500,
      currency: 'usd',
      providerEventId: 'evt_1',
    },
  };
  const set = (ownerId: string, url: string | null) =>
    ({ type: 'SetPremiumSlugTarget', slugId: ID, ownerId, url }) as const;
  const targetSet = (url: string | null): PremiumSlugEvent => ({
    type: 'PremiumSlugTargetSet',
    data: { slugId: ID, slug: 'deals', ownerId: OWNER, url },
  });

  it('is set and removed by the owner only; the same target again adds nothing', () => {
    given([added, bought])
      .when(set(OWNER, 'https://example.com/'))
      .then([targetSet('https://example.com/')]);
    given([added, bought, targetSet('https://example.com/')])
      .when(set(OWNER, 'https://example.com/'))
      .then([]);
    given([added, bought, targetSet('https://example.com/')])
      .when(set(OWNER, null))
      .then([targetSet(null)]);
    given([added, bought]).when(set(LINK, 'https://example.com/')).thenThrows({ status: 404 });
    given([added]).when(set(OWNER, 'https://example.com/')).thenThrows({ status: 404 });
  });
});
