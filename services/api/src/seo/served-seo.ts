import { type SeoEntry, type SeoSettings, seoPages } from '@sniplink/contracts';
import type { Database, Logger } from '@sniplink/platform';
import { seoProjection } from '@sniplink/projections/seo/projection';
import { seoEntries } from '@sniplink/projections/seo/queries';
import type { Kysely } from 'kysely';
import { coalesced } from '../shared/coalesced';
import type { ReadModelFollower } from '../shared/settings';
import type { PageSeoSource } from '../web';

export interface ServedSeoDeps {
  db: Kysely<Database>;
  progress: ReadModelFollower;
  log: Logger;
  /** A safety net: a page served this long after the last read reads again (default 30 s). */
  readAgainAfterMs?: number;
}

/**
 * The SEO entries this process writes into the pages it serves, kept in memory so that a page costs no
 * query: read at start, again each time the read model advances in any process (heard through the
 * database's notifications), and, should a notification be lost, when a page is served 30 s after the
 * last read. A change made in this process is read before its answer (`refresh`), so the next page load
 * shows it.
 *
 * An entry that is not public is a draft the admin keeps to themselves: its page is served with the
 * page's own title and tags, as if it had no entry, and the sitemap leaves the page out.
 */
export class ServedSeo implements PageSeoSource {
  private entries: readonly SeoEntry[] = [];
  private shown: ReadonlyMap<string, SeoSettings> = new Map();
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: ServedSeoDeps) {}

  /** Follows the read model and reads it once; a failure is logged and the pages keep their own tags. */
  follow(): void {
    this.deps.progress
      .onAdvance(seoProjection, () => this.refreshSoon())
      .catch((err: unknown) =>
        this.deps.log.warn({ err }, 'seo: the read model cannot be followed; pages read it every 30 s'),
      );
    this.refreshSoon();
  }

  /** The public entries by their page's path (the same object until an entry changes). */
  current(): ReadonlyMap<string, SeoSettings> {
    if (performance.now() - this.readAt > (this.deps.readAgainAfterMs ?? 30_000)) this.refreshSoon();
    return this.shown;
  }

  /** Every entry, public or not, as last read. */
  all(): readonly SeoEntry[] {
    return this.entries;
  }

  /**
   * Reads the read model now. Calls that overlap share reads: one arriving during a read gets one more
   * read after it, so it always sees what was committed before it was made.
   */
  refresh(): Promise<void> {
    return this.readNow();
  }

  private readonly readNow = coalesced(async () => {
    this.readAt = performance.now();
    this.keep(await seoEntries(this.deps.db));
  });

  private keep(entries: SeoEntry[]): void {
    if (JSON.stringify(entries) === JSON.stringify(this.entries)) return;
    this.entries = entries;
    this.shown = new Map(
      entries.filter((entry) => entry.isPublic).map((entry) => [seoPages[entry.page], settingsOf(entry)]),
    );
  }

  private refreshSoon(): void {
    this.refresh().catch((err: unknown) =>
      this.deps.log.warn({ err }, 'seo: the read model could not be read; pages keep the entries they had'),
    );
  }
}

const settingsOf = ({
  page: _page,
  path: _path,
  updatedAt: _updatedAt,
  ...settings
}: SeoEntry): SeoSettings => settings;
