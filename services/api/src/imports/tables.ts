import type { ImportPreview, ImportProblem } from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';

/** The import feature's own tables (operational state of its jobs, not read models). */
export type ImportTables = {
  import_jobs: {
    import_id: string;
    owner_id: string;
    /** The owner's id, or `operator`. */
    actor: string;
    format: string;
    file_name: string | null;
    status: 'ready' | 'running' | 'done' | 'failed';
    outside_plan: boolean;
    conflicts: 'skip' | 'new-code' | null;
    row_limit: number | null;
    preview: ColumnType<ImportPreview, string, string>;
    total: Generated<number>;
    processed_rows: Generated<number>;
    processed: Generated<number>;
    imported: Generated<number>;
    renamed: Generated<number>;
    skipped: Generated<number>;
    failed: Generated<number>;
    imported_clicks: ColumnType<string, number | undefined, number>;
    problems: ColumnType<ImportProblem[], string | undefined, string>;
    lease_until: Date | null;
    created_at: Date;
    finished_at: Date | null;
  };
  import_files: { import_id: string; seq: number; data: Buffer };
  imported_links: {
    link_id: string;
    import_id: string;
    source_code: string | null;
    source_created_at: string | null;
    imported_clicks: number | null;
  };
};

/** The app's database as the import feature sees it: with its own tables. */
export type ImportDb = Kysely<Database & ImportTables>;

export type ImportJobRow = Selectable<ImportTables['import_jobs']>;
