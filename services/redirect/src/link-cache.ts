import { DEMO_LINK_LIFETIME_DAYS } from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import { liveLinkByCode, premiumSlugByCode, type RedirectRow } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import { controlsOf, fastUntil, type TargetControls } from './link-controls';

export interface RedirectTarget {
  linkId: string;
  target: string;
  /**
   * An unclaimed demo link's end (epoch ms): from then on it answers 410. Absent: it never expires. Kept
   * in the entry so the hot path pays a number comparison; a claim changes the owner, which evicts it.
   */
  expiresAt?: number;
  /**
   * A premium slug with no target (unsold, or its owner set none): it redirects nowhere, and answers a
   * friendly page. Its `expiresAt` is 0, so the fast paths, which redirect no expired entry, pass it on
   * without a check of their own.
   */
  unassigned?: true;
  /**
   * The owner's account is suspended: the code answers the unavailable page and counts no click. Its
   * `expiresAt` is 0 too, so the fast paths pass it on to the route at no cost to a live link's redirect.
   */
  suspended?: true;
  /** The account holding it (absent for an unsold slug): `owner:{id}` evicts every code of theirs. */
  ownerId?: string;
  /**
   * The link's controls (password, pause, click limit, expiry, fallback), absent on a plain link. One that
   * must be looked at on every visit sets `expiresAt` 0, so the fast paths pass it on at no cost to a
   * plain link; an expiry by time alone sets `expiresAt` to it, so the link stays fast until then.
   */
  controls?: TargetControls;
}

export interface LinkCacheOptions {
  /** Codes kept with their target. 10,000 links cost a few MB. */
  capacity?: number;
  /** Unknown codes remembered, so guessing codes does not reach the database. */
  negativeCapacity?: number;
  /** How long a visitor's unclaimed demo link redirects; 7 days unless a test says otherwise. */
  demoLinkLifetimeMs?: number;
}

const MISSING = null;

/**
 * code (lower-cased) -> target, in memory: a hot link costs no database call. Misses read the links read
 * model once (concurrent misses of one code share the read). Kept current by `evict`, which the links
 * projection triggers after each commit; a load that raced an eviction is served but not kept. A
 * suspended owner's codes are kept as such, so they answer a page without a database call.
 */
export class LinkCache {
  private readonly hits = new Map<string, RedirectTarget>();
  private readonly misses = new Map<string, typeof MISSING>();
  private readonly codeOfLink = new Map<string, string>();
  /**
   * Cached codes by owner, for `owner:{id}` (a suspension or its end changes all of them). Entries share
   * the owner's `id` string here rather than each keeping the copy its row was read with.
   */
  private readonly codesOfOwner = new Map<string, { id: string; codes: Set<string> }>();
  private readonly loading = new Map<string, Promise<RedirectTarget | null>>();
  private readonly capacity: number;
  private readonly negativeCapacity: number;
  private readonly demoLinkLifetimeMs: number;
  /** Bumped by every eviction: a load that started before one must not store what it read. */
  private generation = 0;

  private readonly db: Kysely<Database>;

  /** `deps.db`: the links read model. */
  constructor(deps: { db: Kysely<Database> }, options: LinkCacheOptions = {}) {
    this.db = deps.db;
    this.capacity = options.capacity ?? 100_000;
    this.negativeCapacity = options.negativeCapacity ?? 100_000;
    this.demoLinkLifetimeMs = options.demoLinkLifetimeMs ?? DEMO_LINK_LIFETIME_DAYS * 86_400_000;
  }

  /** The target for a code (any case), or null when no live link has it. */
  resolve(code: string): RedirectTarget | null | Promise<RedirectTarget | null> {
    const key = code.toLowerCase();
    const hit = this.hits.get(key);
    if (hit) return hit;
    if (this.misses.has(key)) return null;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(key).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** The cached target for a code that is already lower-case, without loading anything: the fast path's look-up. */
  peek(lowerCaseCode: string): RedirectTarget | undefined {
    return this.hits.get(lowerCaseCode);
  }

  /**
   * Forgets codes (lower-cased), links (`link:{id}`) and every code of an owner (`owner:{id}`) whose answer
   * may have changed.
   */
  evict(keys: readonly string[]): void {
    this.generation += 1;
    for (const key of keys) {
      if (key.startsWith('link:')) {
        const code = this.codeOfLink.get(key.slice(5));
        if (code !== undefined) this.forget(code);
      } else if (key.startsWith('owner:')) {
        for (const code of this.codesOfOwner.get(key.slice(6))?.codes ?? []) this.forget(code);
      } else {
        this.forget(key);
      }
    }
  }

  clear(): void {
    this.generation += 1;
    this.hits.clear();
    this.misses.clear();
    this.codeOfLink.clear();
    this.codesOfOwner.clear();
  }

  stats(): { cached: number; unknownCached: number } {
    return { cached: this.hits.size, unknownCached: this.misses.size };
  }

  private async load(key: string): Promise<RedirectTarget | null> {
    const generation = this.generation;
    const row = await liveLinkByCode(this.db, key);
    // A code is a link's or a premium slug's, never both: a slug is looked for only when no link has it.
    const found = row ? this.targetOf(row) : await this.premiumTarget(key);
    if (generation === this.generation) this.remember(key, found);
    return found;
  }

  /** A premium slug's target, keyed by the slug's id as a link's clicks are by the link's. */
  private async premiumTarget(key: string): Promise<RedirectTarget | null> {
    const slug = await premiumSlugByCode(this.db, key);
    if (!slug) return null;
    if (slug.owner_id === null) return { linkId: slug.slug_id, target: '', expiresAt: 0, unassigned: true };
    const ownerId = slug.owner_id;
    if (slug.owner_suspended) return suspendedTarget(slug.slug_id, ownerId);
    if (slug.target_url !== null) return { linkId: slug.slug_id, target: slug.target_url, ownerId };
    return { linkId: slug.slug_id, target: '', expiresAt: 0, unassigned: true, ownerId };
  }

  private targetOf(row: RedirectRow): RedirectTarget {
    if (row.owner_suspended) return suspendedTarget(row.link_id, row.owner_id);
    const found: RedirectTarget = { linkId: row.link_id, target: row.original_url, ownerId: row.owner_id };
    const controls = controlsOf(row);
    if (controls) {
      found.controls = controls;
      found.expiresAt = fastUntil(controls);
      return found;
    }
    // Only a visitor's demo link expires: once claimed its owner is an account, and it stays.
    if (row.origin === 'demo' && row.owner_id.startsWith('visitor-')) {
      found.expiresAt = row.created_at.getTime() + this.demoLinkLifetimeMs;
    }
    return found;
  }

  private remember(key: string, found: RedirectTarget | null): void {
    if (found) {
      if (this.hits.size >= this.capacity) this.dropOldest(this.hits);
      this.hits.set(key, found);
      this.codeOfLink.set(found.linkId, key);
      if (found.ownerId !== undefined) {
        const owner = this.ownedBy(found.ownerId);
        found.ownerId = owner.id;
        owner.codes.add(key);
      }
    } else {
      if (this.misses.size >= this.negativeCapacity) this.dropOldest(this.misses);
      this.misses.set(key, MISSING);
    }
  }

  private forget(code: string): void {
    const hit = this.hits.get(code);
    if (hit) this.codeOfLink.delete(hit.linkId);
    if (hit?.ownerId !== undefined) this.disown(hit.ownerId, code);
    this.hits.delete(code);
    this.misses.delete(code);
  }

  private ownedBy(ownerId: string): { id: string; codes: Set<string> } {
    let owner = this.codesOfOwner.get(ownerId);
    if (!owner) {
      owner = { id: ownerId, codes: new Set() };
      this.codesOfOwner.set(ownerId, owner);
    }
    return owner;
  }

  private disown(ownerId: string, code: string): void {
    const owner = this.codesOfOwner.get(ownerId);
    owner?.codes.delete(code);
    if (owner?.codes.size === 0) this.codesOfOwner.delete(ownerId);
  }

  /** Maps iterate in insertion order: the first key is the one cached longest ago. */
  private dropOldest(map: Map<string, unknown>): void {
    const oldest = map.keys().next().value;
    if (oldest === undefined) return;
    if (map === this.hits) this.forget(oldest);
    else map.delete(oldest);
  }
}

/** A suspended owner's link or slug: no target, and expired for the fast paths (see `suspended`). */
function suspendedTarget(linkId: string, ownerId: string): RedirectTarget {
  return { linkId, target: '', expiresAt: 0, suspended: true, ownerId };
}
