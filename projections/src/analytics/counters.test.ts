import { describe, expect, it } from 'vitest';
import { type ClickLabelSet, ClickTally, HOUR_MS, type ParsedClick } from './counters';

const labelSet = (device: string, referrer: string): ClickLabelSet =>
  Object.freeze({ device, referrer, country: 'US', browser: 'Chrome', os: 'Linux', rule: '' });

/** What the tally must hold, summed the slow way: link -> hour -> label set -> clicks. */
function recount(clicks: readonly ParsedClick[]) {
  const sums = new Map<string, Map<number, Map<ClickLabelSet, number>>>();
  for (const click of clicks) {
    if (click.bot) continue;
    const hours = sums.get(click.linkId) ?? new Map<number, Map<ClickLabelSet, number>>();
    sums.set(click.linkId, hours);
    const hourMs = Math.floor(click.atMs / HOUR_MS) * HOUR_MS;
    const sets = hours.get(hourMs) ?? new Map<ClickLabelSet, number>();
    hours.set(hourMs, sets);
    sets.set(click.labels, (sets.get(click.labels) ?? 0) + 1);
  }
  return sums;
}

function held(tally: ClickTally) {
  const sums = new Map<string, Map<number, Map<ClickLabelSet, number>>>();
  for (const [linkId, link] of tally.links) {
    const hours = new Map<number, Map<ClickLabelSet, number>>();
    for (const [hourMs, hour] of link.hours) {
      const sets = new Map([...hour.labelSets.values()].map(({ labels, clicks }) => [labels, clicks]));
      expect(hour.total).toBe([...sets.values()].reduce((sum, n) => sum + n, 0));
      hours.set(hourMs, sets);
    }
    if (hours.size > 0) sums.set(linkId, hours);
  }
  return sums;
}

describe('ClickTally', () => {
  it('sums clicks per link, hour and label set when they interleave, as a recount does', () => {
    const sets = [labelSet('desktop', 'direct'), labelSet('mobile', 'direct'), labelSet('desktop', 't.co')];
    const links = ['link-a', 'link-b', 'link-c'];
    const start = Date.UTC(2026, 10, 22, 9, 59, 0);
    // A fixed pseudo-random walk: clicks go back to an hour, a link and a label set left a moment before.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const clicks: ParsedClick[] = Array.from({ length: 2_000 }, (_, i) => ({
      id: `click-${i}`,
      linkId: links[next(3)] as string,
      atMs: start + next(3) * HOUR_MS + next(120_000),
      bot: next(10) === 0,
      labels: sets[next(3)] as ClickLabelSet,
    }));
    const tally = new ClickTally();
    for (const click of clicks) tally.add(click);

    const expected = recount(clicks);
    expect(held(tally)).toEqual(expected);
    const humans = clicks.filter((click) => !click.bot);
    expect(tally.clicks).toBe(2_000);
    for (const linkId of links) {
      const link = tally.links.get(linkId);
      const own = clicks.filter((click) => click.linkId === linkId);
      expect(link?.clicks).toBe(own.filter((click) => !click.bot).length);
      expect(link?.botClicks).toBe(own.filter((click) => click.bot).length);
      expect(link?.lastClickMs).toBe(
        Math.max(...own.filter((click) => !click.bot).map((click) => click.atMs)),
      );
    }
    let sums = tally.links.size;
    for (const hours of expected.values()) {
      sums += hours.size;
      for (const perSet of hours.values()) sums += perSet.size;
    }
    expect(tally.sums).toBe(sums);
    expect(humans.length).toBeGreaterThan(1_500);
  });

  it('keeps a link of only bots without hours or a last click', () => {
    const tally = new ClickTally();
    tally.add({ id: '1', linkId: 'link', atMs: 1_000, bot: true, labels: labelSet('desktop', 'direct') });
    expect(tally.links.get('link')).toMatchObject({ clicks: 0, botClicks: 1, lastClickMs: null });
    expect(tally.links.get('link')?.hours.size).toBe(0);
    expect(tally.sums).toBe(1);
  });
});
