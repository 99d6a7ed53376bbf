import { premiumSlugStream } from '@sniplink/contracts';
import type { RecordedEvent } from '@sniplink/platform';
import { events, onStream } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { marketplaceProjection } from '../marketplace/projection';
import { premiumSlugByCode } from '../marketplace/queries';
import { linksProjection } from './projection';
import { liveLinkByCode, liveLinksOf, tagCountsOf } from './queries';

const ANN = '01890000-0000-7000-8000-0000000000a1';
const BOB = '01890000-0000-7000-8000-0000000000b1';
const ANNS_LINK = '01890000-0000-7000-8000-0000000000c1';
const BOBS_LINK = '01890000-0000-7000-8000-0000000000c2';
const SLUG = '01890000-0000-7000-8000-0000000000d1';

const created = (linkId: string, ownerId: string, code: string) =>
  events.linkCreated({ linkId, ownerId, code, originalUrl: `https://example.com/${code}` });
const suspended = events.userSuspended({ reason: 'spam' });
const unsuspended = events.userUnsuspended();

describe("links projection: owners' suspension", () => {
  // The marketplace's read model too: a premium slug's owner is suspended with their links.
  const spec = projectionSpec([linksProjection(), marketplaceProjection]);
  let recorded: RecordedEvent[];
  /** Ann suspended, back, suspended again (her premium slug too); Bob suspended and back. */
  beforeAll(async () => {
    recorded = await spec.given(
      onStream(`link-${ANNS_LINK}`, created(ANNS_LINK, ANN, 'Anns')),
      onStream(`link-${BOBS_LINK}`, created(BOBS_LINK, BOB, 'bobs')),
      onStream(`user-${ANN}`, suspended, unsuspended, suspended),
      onStream(`user-${BOB}`, suspended, unsuspended),
      onStream(
        `premiumslug-${SLUG}`,
        events.premiumSlugAdded({ slugId: SLUG, slug: 'deals' }),
        events.premiumSlugPurchased({ slugId: SLUG, holdId: SLUG, buyerId: ANN, paymentId: 'pi_1' }),
      ),
    );
  });

  it("marks a suspended owner's link and premium slug, keeping them by their code; an unsuspended owner's redirect", async () => {
    const { db } = spec;
    expect(await liveLinkByCode(db, 'anns')).toMatchObject({ link_id: ANNS_LINK, owner_suspended: true });
    expect(await liveLinkByCode(db, 'bobs')).toMatchObject({ link_id: BOBS_LINK, owner_suspended: false });
    expect(await premiumSlugByCode(db, 'deals')).toMatchObject({ owner_id: ANN, owner_suspended: true });
  });

  it('tells the redirect caches every code of the owner changed: owner:{id}', async () => {
    const told: string[][] = [];
    const projection = linksProjection(async (codes) => {
      told.push(codes);
    });
    await projection.afterCommit?.(recorded.filter((event) => !premiumSlugStream.holds(event)));
    expect(told).toEqual([['anns', 'bobs', `owner:${ANN}`, `owner:${BOB}`]]);
  });
});

describe('links projection: controls', () => {
  const spec = projectionSpec([linksProjection()]);
  const LINK = '01890000-0000-7000-8000-0000000000c3';
  const OTHER = '01890000-0000-7000-8000-0000000000c4';
  const RULES = [
    { when: { country: ['GB'], device: ['mobile' as const] }, url: 'https://example.co.uk/m' },
    { when: { language: ['fr'] }, url: 'https://example.fr/' },
  ];
  let recorded: RecordedEvent[];
  beforeAll(async () => {
    recorded = await spec.given(
      onStream(
        `link-${LINK}`,
        created(LINK, ANN, 'ctrl'),
        events.linkPaused(),
        events.linkExpiryChanged({ expiresAt: '2030-01-01T00:00:00.000Z' }),
        events.linkClickLimitChanged({ maxClicks: 3 }),
        events.linkFallbackChanged({ fallbackUrl: 'https://example.com/over' }),
        events.linkTagsChanged({ tags: ['sales', 'spring'] }),
        events.linkRulesChanged({ rules: RULES }),
      ),
      onStream(`link-${OTHER}`, created(OTHER, ANN, 'other'), events.linkTagsChanged({ tags: ['sales'] })),
    );
  });

  it("keeps each link's controls for the redirect, and its tags for the list", async () => {
    const { db } = spec;
    expect(await liveLinkByCode(db, 'ctrl')).toMatchObject({
      paused: true,
      expires_at: new Date('2030-01-01T00:00:00.000Z'),
      max_clicks: 3,
      fallback_url: 'https://example.com/over',
      password_hash: null,
      rules: RULES,
    });
    expect(await liveLinkByCode(db, 'other')).toMatchObject({ rules: [] });
    const tagged = await liveLinksOf(db, ANN, { tag: 'spring', limit: 10, offset: 0 });
    expect(tagged.map((row) => row.link_id)).toEqual([LINK]);
    expect(await tagCountsOf(db, ANN)).toEqual([
      { tag: 'sales', count: 2 },
      { tag: 'spring', count: 1 },
    ]);
  });

  it('evicts the link from the redirect caches on every control but its tags', async () => {
    const told: string[][] = [];
    const projection = linksProjection(async (codes) => {
      told.push(codes);
    });
    await projection.afterCommit?.(recorded.filter((event) => event.type !== 'LinkCreated'));
    await projection.afterCommit?.(recorded.filter((event) => event.type === 'LinkRulesChanged'));
    expect(told).toEqual([[`link:${LINK}`], [`link:${LINK}`]]);
  });
});
