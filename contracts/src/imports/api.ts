import { z } from 'zod';

/** The largest export file an import takes (a 100,000-link CSV is about 15 MB). */
export const IMPORT_FILE_LIMIT_BYTES = 50 * 1024 * 1024;

/** Invalid rows an import lists with their reason; past these it counts them. */
export const IMPORT_PROBLEMS_LISTED = 100;

/** What becomes of a link whose code is taken here: left out, or imported under a new generated code. */
export const importConflictChoices = ['skip', 'new-code'] as const;
export type ImportConflictChoice = (typeof importConflictChoices)[number];

export const importFormatSchema = z
  .object({ id: z.string(), label: z.string() })
  .meta({ id: 'ImportFormat' });
export type ImportFormatInfo = z.infer<typeof importFormatSchema>;

/** `POST /api/imports?format=bitly&fileName=links.csv`: the file itself is the body. */
export const uploadImportQuery = z.object({
  format: z.string().min(1).describe('The source: `bitly`, `yourls-csv`, … (GET /api/imports/formats)'),
  fileName: z.string().max(200).optional().describe('The uploaded file’s name, for the list of imports'),
});

/** A row that cannot be imported, and why. */
export const importProblemSchema = z.object({ row: z.number().int(), reason: z.string() });
export type ImportProblem = z.infer<typeof importProblemSchema>;

/** What the file holds, read before anything is imported. */
export const importPreviewSchema = z.object({
  rows: z.number().int(),
  /** Rows that can become links (`rows - invalid`). */
  links: z.number().int(),
  /** Links whose code is already taken here (another account's, or reserved). */
  codesTaken: z.number().int(),
  invalid: z.number().int(),
  /** The first invalid rows with their reason. */
  problems: z.array(importProblemSchema),
  /** How many more links the plan allows now (null: the import is outside plan limits). */
  allowanceRemaining: z.number().int().nullable(),
  allowancePeriod: z.enum(['lifetime', 'month']).nullable(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importStatuses = ['ready', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof importStatuses)[number];

/** How far an import is, and once done, its report. */
export const importProgressSchema = z.object({
  /** Rows the import goes through (all valid rows, or the first N the user chose). */
  total: z.number().int(),
  processed: z.number().int(),
  imported: z.number().int(),
  /** Imported under a new code, theirs being taken. */
  renamed: z.number().int(),
  /** Left out: code taken (with "skip"), or invalid. */
  skipped: z.number().int(),
  /** Refused when created (the plan's allowance used up meanwhile, a target refused). */
  failed: z.number().int(),
  /** The click totals the source gave the imported links, kept apart from clicks Sniplink counts. */
  importedClicks: z.number().int(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const importJobSchema = z
  .object({
    id: z.string(),
    format: z.string(),
    fileName: z.string().nullable(),
    status: z.enum(importStatuses),
    conflicts: z.enum(importConflictChoices).nullable(),
    preview: importPreviewSchema,
    progress: importProgressSchema,
    /** Rows refused while importing, with their reason (the first ones). */
    problems: z.array(importProblemSchema),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'ImportJob' });
export type ImportJob = z.infer<typeof importJobSchema>;

/** `POST /api/imports/:id/start`: what to do with taken codes, and at most how many links to import. */
export const startImportBody = z
  .object({
    conflicts: z.enum(importConflictChoices),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Import only the first N links (the plan’s allowance)'),
  })
  .meta({ id: 'StartImportBody' });
export type StartImportBody = z.infer<typeof startImportBody>;
