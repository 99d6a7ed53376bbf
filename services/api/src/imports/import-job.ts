import type { ImportProblem } from '@sniplink/contracts';
import { IMPORT_PROBLEMS_LISTED } from '@sniplink/contracts';
import { DomainError } from '@sniplink/domain';
import { currentCommandContext, enterChannel, type Logger, runAs } from '@sniplink/platform';
import { linksReadModel, type ProjectionProgress } from '@sniplink/projections';
import { sql } from 'kysely';
import { v5 as uuidv5 } from 'uuid';
import { importFormat } from './formats/index';
import type { ImportedLink } from './formats/types';
import { deleteImportFile, readImportFile } from './import-file';
import { type ImportServiceDeps, ROWS_AT_ONCE } from './import-service';
import { checkRow } from './row-check';
import type { ImportJobRow } from './tables';

/** A running job holds its lease this long past its last renewal; a job whose lease ran out is taken up again. */
const LEASE_SECONDS = 20;
const RENEW_EVERY_MS = 5_000;
/** How long the end of a job waits for the links read model to show its last links. */
const SHOWN_WITHIN_MS = 30_000;

/** Codes the namespace refuses for this link: with `new-code`, the link gets a generated code instead. */
const CODE_REFUSALS = new Set([
  'SHORT_CODE_TAKEN',
  'INVALID_SHORT_CODE',
  'PROHIBITED_CODE',
  'PROTECTED_BRAND',
]);
/** The plan has no room left: the links after this one are not tried. */
const ALLOWANCE_USED = new Set(['MONTHLY_LIMIT_REACHED', 'SUBSCRIPTION_REQUIRED']);

/** Each row's link id: the same for the same row of the same import, so a resumed job finds what it made. */
export const linkIdOfRow = (importId: string, row: number) => uuidv5(String(row), importId);

type Outcome = 'imported' | 'renamed' | 'skipped' | 'failed' | 'allowance-used';

interface Tally {
  processed: number;
  imported: number;
  renamed: number;
  skipped: number;
  failed: number;
  importedClicks: number;
  problems: ImportProblem[];
}

export interface ImportJobsDeps extends ImportServiceDeps {
  log: Logger;
  /** How far the read models are: a job ends once the links list shows its links. */
  readModels: Pick<ProjectionProgress, 'waitFor'>;
}

export type JobProgress = (job: { total: number; processed: number }) => void;

/**
 * Runs import jobs: takes a running job whose lease is free, renews the lease while it works, and goes
 * through the file from the row after its checkpoint, ROWS_AT_ONCE rows at a time: each link is one create
 * through the links service (code namespace, lists, plan) under the row's own link id, recorded as the
 * import's owner (or the operator) with the import's id as correlation id. After each group the counters
 * and the checkpoint are written together, so a crash repeats at most one group, and each repeated row
 * finds its link already made.
 */
export class ImportJobs {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(private readonly deps: ImportJobsDeps) {}

  /** Looks for work every second (and at once when woken), in the background, until `stop`. */
  follow(): void {
    this.timer = setInterval(() => this.wake(), 1_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  wake(): void {
    if (this.busy) return;
    this.busy = true;
    void this.runWaiting()
      .catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'an import job stopped; it resumes later'),
      )
      .finally(() => {
        this.busy = false;
      });
  }

  /** Runs every job waiting for a runner, one after another. */
  async runWaiting(): Promise<void> {
    for (;;) {
      const job = await this.takeLease();
      if (!job) return;
      await this.run(job);
    }
  }

  /** Takes this job's lease (the CLI runs its own job) and runs it to its end. */
  async runOne(importId: string, onProgress?: JobProgress): Promise<void> {
    const job = await this.takeLease(importId);
    if (!job) throw new Error('The import is not waiting to run (finished, or run by the app)');
    await this.run(job, onProgress);
  }

  private async takeLease(importId?: string): Promise<ImportJobRow | undefined> {
    const free = this.deps.db
      .selectFrom('import_jobs')
      .select('import_id')
      .where('status', '=', 'running')
      .where((where) =>
        where.or([where('lease_until', 'is', null), where('lease_until', '<', sql<Date>`now()`)]),
      )
      .$if(importId !== undefined, (query) => query.where('import_id', '=', importId as string))
      .orderBy('created_at')
      .limit(1)
      .forUpdate()
      .skipLocked();
    return this.deps.db
      .updateTable('import_jobs')
      .set({ lease_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .where('import_id', 'in', free)
      .returningAll()
      .executeTakeFirst();
  }

  private async run(job: ImportJobRow, onProgress?: JobProgress): Promise<void> {
    const renew = setInterval(() => {
      void this.deps.db
        .updateTable('import_jobs')
        .set({ lease_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
        .where('import_id', '=', job.import_id)
        .execute()
        .catch(() => undefined);
    }, RENEW_EVERY_MS);
    renew.unref();
    try {
      await runAs(
        job.actor,
        () => {
          if (job.actor === 'operator') enterChannel('operator');
          return this.work(job, onProgress);
        },
        job.import_id,
      );
    } finally {
      clearInterval(renew);
    }
  }

  private async work(job: ImportJobRow, onProgress?: JobProgress): Promise<void> {
    const parse = importFormat(job.format)?.parse;
    if (!parse) return this.finish(job, 'failed');
    const tally: Tally = {
      processed: job.processed,
      imported: job.imported,
      renamed: job.renamed,
      skipped: job.skipped,
      failed: job.failed,
      importedClicks: Number(job.imported_clicks),
      problems: [...job.problems],
    };
    let group: { row: number; link: ImportedLink & { url: string } }[] = [];
    let lastRow = job.processed_rows;
    let stopped = false;
    // Only the first group of a run can hold rows a crash left half done (each group ends at a checkpoint),
    // even a crash before the first checkpoint.
    let firstGroup = true;
    const settle = async () => {
      const resumed = firstGroup;
      firstGroup = false;
      const outcomes = await Promise.all(group.map((entry) => this.importRow(job, entry, tally, resumed)));
      stopped = outcomes.includes('allowance-used');
      await this.checkpoint(job.import_id, lastRow, tally);
      onProgress?.({ total: job.total, processed: tally.processed });
      group = [];
    };
    for await (const parsed of parse(readImportFile(this.deps.db, job.import_id))) {
      if (parsed.row <= job.processed_rows) continue;
      if (tally.processed + group.length >= job.total) break;
      lastRow = parsed.row;
      const checked = checkRow(parsed, this.deps.ownOrigins);
      if (checked.problem !== undefined) continue; // listed in the preview
      group.push(checked);
      if (group.length >= ROWS_AT_ONCE) await settle();
      if (stopped) break;
    }
    if (group.length > 0 && !stopped) await settle();
    // The report comes when the user's list shows the links (bounded: they are stored either way).
    const last = currentCommandContext()?.lastAppended;
    if (last) await this.deps.readModels.waitFor(linksReadModel, last, SHOWN_WITHIN_MS);
    await this.finish(job, 'done');
  }

  private async importRow(
    job: ImportJobRow,
    { row, link }: { row: number; link: ImportedLink & { url: string } },
    tally: Tally,
    resumed: boolean,
  ): Promise<Outcome> {
    const linkId = linkIdOfRow(job.import_id, row);
    const outcome = await this.createLink(job, linkId, link, resumed).catch((error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
      const code = error.code;
      if (ALLOWANCE_USED.has(code)) {
        addProblem(tally, { row, reason: 'Not imported: the plan’s allowance is used up' });
        return 'allowance-used' as const;
      }
      addProblem(tally, { row, reason: error.message });
      return (CODE_REFUSALS.has(code) ? 'skipped' : 'failed') as Outcome;
    });
    tally.processed += 1;
    if (outcome === 'allowance-used') tally.failed += 1;
    else tally[outcome] += 1;
    if (outcome === 'imported' || outcome === 'renamed') {
      tally.importedClicks += link.clicks ?? 0;
      await this.deps.db
        .insertInto('imported_links')
        .values({
          link_id: linkId,
          import_id: job.import_id,
          source_code: link.code,
          source_created_at: link.createdAt,
          imported_clicks: link.clicks,
        })
        .onConflict((conflict) => conflict.column('link_id').doNothing())
        .execute();
    }
    return outcome;
  }

  /**
   * The link under its own code, or with `new-code` under a generated one when its code is refused here.
   * In a resumed group, a link already made counts as imported.
   */
  private async createLink(
    job: ImportJobRow,
    linkId: string,
    link: ImportedLink & { url: string },
    resumed: boolean,
  ): Promise<'imported' | 'renamed'> {
    if (resumed && (await this.deps.links.exists(linkId))) return 'imported';
    const body = {
      originalUrl: link.url,
      title: link.title,
      ...(link.tags.length > 0 && { tags: link.tags }),
    };
    const options = { countAgainstPlan: !job.outside_plan };
    if (link.code === null) {
      await this.deps.links.createImported(job.owner_id, linkId, body, options);
      return 'imported';
    }
    try {
      await this.deps.links.createImported(job.owner_id, linkId, { ...body, shortCode: link.code }, options);
      return 'imported';
    } catch (error) {
      if (job.conflicts !== 'new-code' || !(error instanceof DomainError) || !CODE_REFUSALS.has(error.code))
        throw error;
      await this.deps.links.createImported(job.owner_id, linkId, body, options);
      return 'renamed';
    }
  }

  private async checkpoint(importId: string, lastRow: number, tally: Tally): Promise<void> {
    await this.deps.db
      .updateTable('import_jobs')
      .set({
        processed_rows: lastRow,
        processed: tally.processed,
        imported: tally.imported,
        renamed: tally.renamed,
        skipped: tally.skipped,
        failed: tally.failed,
        imported_clicks: tally.importedClicks,
        problems: JSON.stringify(tally.problems),
      })
      .where('import_id', '=', importId)
      .execute();
  }

  private async finish(job: ImportJobRow, status: 'done' | 'failed'): Promise<void> {
    await this.deps.db
      .updateTable('import_jobs')
      .set({ status, finished_at: this.deps.clock.now(), lease_until: null })
      .where('import_id', '=', job.import_id)
      .execute();
    await deleteImportFile(this.deps.db, job.import_id);
  }
}

function addProblem(tally: Tally, problem: ImportProblem): void {
  if (tally.problems.length < IMPORT_PROBLEMS_LISTED) tally.problems.push(problem);
}
