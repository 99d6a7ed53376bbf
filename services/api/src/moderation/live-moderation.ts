import { CodeMatcher, type CodeVerdict } from '@sniplink/domain';
import type { Database, Logger } from '@sniplink/platform';
import { moderationListsReadModel } from '@sniplink/projections/moderation/projection';
import { activeModerationEntries, moderationListsVersion } from '@sniplink/projections/moderation/queries';
import type { Kysely } from 'kysely';
import type { CodeModeration } from '../links/short-code-claims';
import { coalesced } from '../shared/coalesced';
import type { ReadModelFollower } from '../shared/settings';

export interface LiveModerationDeps {
  db: Kysely<Database>;
  progress: ReadModelFollower;
  log: Logger;
  /** A safety net: read again this often even if no progress was heard (default 30 s). */
  refreshEveryMs?: number;
}

/**
 * The admin's lists as this process checks codes against them: compiled into a `CodeMatcher` at start,
 * again each time the lists' read model advances in any process (projection progress, heard through the
 * database's notifications), and every 30 s in case a notification was lost. A change made in this
 * process is compiled before its answer (`refresh`), so the next claim anywhere obeys it within the
 * notification's delay, and here at once. Only active entries are compiled; a claim never waits for a
 * compilation (it checks against the lists compiled last).
 */
export class LiveModeration implements CodeModeration {
  private matcher = new CodeMatcher([]);
  /** The lists' version the matcher was compiled from: compiling 15,000 entries takes ~0.1 s, so only on a change. */
  private compiled: string | undefined;
  private stopFollowing: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: LiveModerationDeps) {}

  check(code: string): CodeVerdict {
    return this.matcher.check(code);
  }

  async start(): Promise<void> {
    this.stopFollowing = await this.deps.progress.onAdvance(moderationListsReadModel, () =>
      this.refreshSoon(),
    );
    await this.refresh();
    this.timer = setInterval(() => this.refreshSoon(), this.deps.refreshEveryMs ?? 30_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.stopFollowing?.();
  }

  /** Compiles the lists as the read model has them now; overlapping calls share reads, as LiveSettings' do. */
  refresh(): Promise<void> {
    return this.readNow();
  }

  private readonly readNow = coalesced(async () => {
    await this.compileIfChanged();
  });

  private async compileIfChanged(): Promise<void> {
    const version = await moderationListsVersion(this.deps.db);
    if (version === this.compiled) return;
    const entries = await activeModerationEntries(this.deps.db);
    this.matcher = new CodeMatcher(entries);
    this.compiled = version;
  }

  private refreshSoon(): void {
    this.refresh().catch((err: unknown) =>
      this.deps.log.warn(
        { err },
        'moderation: the lists could not be read; codes are checked against the last ones',
      ),
    );
  }
}
