import type {
  ImportConflictChoice,
  ImportJob,
  ImportPreview,
  ImportProblem,
  StartImportBody,
} from '@sniplink/contracts';
import { IMPORT_PROBLEMS_LISTED } from '@sniplink/contracts';
import { ConflictError, NotFoundError, ValidationError } from '@sniplink/domain';
import type { Clock, IdSource } from '@sniplink/platform';
import type { AccountService } from '../accounts/accounts';
import type { LinkService } from '../links/link-service';
import { CsvFormatError } from './formats/csv-rows';
import { IMPORT_FORMAT_IDS, importFormat, importFormats } from './formats/index';
import { deleteImportFile, readImportFile, storeImportFile } from './import-file';
import { checkRow } from './row-check';
import type { ImportDb, ImportJobRow } from './tables';

export interface ImportServiceDeps {
  db: ImportDb;
  links: Pick<LinkService, 'availability' | 'createImported' | 'exists'>;
  accounts: Pick<AccountService, 'user'>;
  ownOrigins: readonly string[];
  clock: Clock;
  ids: IdSource;
}

/** Who starts an import: its owner from the dashboard (the plan counts), or the operator (outside plan limits). */
export interface ImportRequester {
  ownerId: string;
  actor: string;
  outsidePlan: boolean;
}

/** Rows looked at together: their code checks run at once, and no more of the file is in memory. */
export const ROWS_AT_ONCE = 64;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Imports: an upload is stored and read once for its preview (links, codes taken here, invalid rows, the
 * plan's room); starting it hands it to the job runner (import-job.ts), which works on the server whether
 * or not the page stays open.
 */
export class ImportService {
  constructor(private readonly deps: ImportServiceDeps) {}

  formats() {
    return Object.entries(importFormats).map(([id, format]) => ({ id, label: format.label }));
  }

  /** Stores the file, reads its preview, and answers the import, ready to start. */
  async upload(
    requester: ImportRequester,
    format: string,
    fileName: string | null,
    body: AsyncIterable<Uint8Array | string>,
  ): Promise<ImportJob> {
    if (!importFormat(format))
      throw new ValidationError(
        `format must be one of ${this.formats()
          .map((known) => known.id)
          .join(', ')}`,
        'format',
      );
    const importId = this.deps.ids.newId();
    await storeImportFile(this.deps.db, importId, body);
    let preview: ImportPreview;
    try {
      preview = await this.preview(requester, importId, format);
    } catch (error) {
      await deleteImportFile(this.deps.db, importId);
      if (error instanceof CsvFormatError) throw new ValidationError(error.message, 'file');
      // csv-parse's own errors (an unclosed quote) say what is wrong with the file, and where.
      if ((error as { code?: string }).code?.startsWith('CSV_'))
        throw new ValidationError(`The file cannot be read: ${(error as Error).message}`, 'file');
      throw error;
    }
    await this.deps.db
      .insertInto('import_jobs')
      .values({
        import_id: importId,
        owner_id: requester.ownerId,
        actor: requester.actor,
        format,
        file_name: fileName?.trim() || null,
        status: 'ready',
        outside_plan: requester.outsidePlan,
        conflicts: null,
        row_limit: null,
        preview: JSON.stringify(preview),
        created_at: this.deps.clock.now(),
        finished_at: null,
        lease_until: null,
      })
      .execute();
    return this.get(requester.ownerId, importId);
  }

  /** Starts the import with the owner's choices; the job runner takes it from there. */
  async start(ownerId: string, importId: string, body: StartImportBody): Promise<ImportJob> {
    const job = await this.row(ownerId, importId);
    if (job.status !== 'ready') throw new ConflictError('CONFLICT', 'This import has already started');
    const total = body.limit === undefined ? job.preview.links : Math.min(body.limit, job.preview.links);
    await this.deps.db
      .updateTable('import_jobs')
      .set({
        status: 'running',
        conflicts: body.conflicts satisfies ImportConflictChoice,
        row_limit: body.limit ?? null,
        total,
      })
      .where('import_id', '=', job.import_id)
      .where('status', '=', 'ready')
      .execute();
    return this.get(ownerId, importId);
  }

  async get(ownerId: string, importId: string): Promise<ImportJob> {
    return toJson(await this.row(ownerId, importId));
  }

  /** The owner's imports, newest first (the last 20). */
  async list(ownerId: string): Promise<ImportJob[]> {
    const rows = await this.deps.db
      .selectFrom('import_jobs')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .limit(20)
      .execute();
    return rows.map(toJson);
  }

  /** An id that is malformed or not the caller's import is not found. */
  private async row(ownerId: string, importId: string): Promise<ImportJobRow> {
    if (!UUID.test(importId)) throw new NotFoundError('Import not found');
    const row = await this.deps.db
      .selectFrom('import_jobs')
      .selectAll()
      .where('import_id', '=', importId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Import not found');
    return row;
  }

  /**
   * Reads the stored file once: each row checked as the import will check it, the codes asked of the code
   * namespace (a code taken now may still be freed before the import reaches it, and the reverse: the
   * import's own answer is the one that counts), and the plan's room.
   */
  private async preview(
    requester: ImportRequester,
    importId: string,
    format: string,
  ): Promise<ImportPreview> {
    const parse = importFormat(format)?.parse;
    if (!parse) throw new ValidationError(`format must be one of ${IMPORT_FORMAT_IDS.join(', ')}`, 'format');
    let rows = 0;
    let links = 0;
    let codesTaken = 0;
    let invalid = 0;
    const problems: ImportProblem[] = [];
    let batch: string[] = [];
    const checkCodes = async () => {
      const answers = await Promise.all(
        batch.map((code) => this.deps.links.availability(requester.ownerId, code)),
      );
      codesTaken += answers.filter((answer) => !answer.available).length;
      batch = [];
    };
    for await (const parsed of parse(readImportFile(this.deps.db, importId))) {
      rows += 1;
      const checked = checkRow(parsed, this.deps.ownOrigins);
      if (checked.problem !== undefined) {
        invalid += 1;
        if (problems.length < IMPORT_PROBLEMS_LISTED)
          problems.push({ row: checked.row, reason: checked.problem });
        continue;
      }
      links += 1;
      if (checked.link.code !== null) batch.push(checked.link.code);
      if (batch.length >= ROWS_AT_ONCE) await checkCodes();
    }
    await checkCodes();
    const allowance = requester.outsidePlan
      ? null
      : (await this.deps.accounts.user(requester.ownerId))?.linkAllowance;
    return {
      rows,
      links,
      codesTaken,
      invalid,
      problems,
      allowanceRemaining: allowance?.remaining ?? null,
      allowancePeriod: allowance?.period ?? null,
    };
  }
}

export function toJson(row: ImportJobRow): ImportJob {
  return {
    id: row.import_id,
    format: row.format,
    fileName: row.file_name,
    status: row.status,
    conflicts: row.conflicts,
    preview: row.preview,
    progress: {
      total: row.total,
      processed: row.processed,
      imported: row.imported,
      renamed: row.renamed,
      skipped: row.skipped,
      failed: row.failed,
      importedClicks: Number(row.imported_clicks),
    },
    problems: row.problems,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}
