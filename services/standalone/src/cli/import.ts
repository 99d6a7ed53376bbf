/**
 * `npm run import -- --format yourls --owner ada@example.com links.csv [--conflicts skip|new-code]`: imports
 * another shortener's export into an account, outside plan limits, with a progress bar on stderr and a
 * one-line report on stdout. The links are the operator's doing in the audit history (actor `operator`),
 * grouped by the import's id; a run that stops halfway is resumed by the app (or by running the import of
 * the same job again: nothing is created twice).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type ImportTables, importsFor } from '@sniplink/api/imports/feature';
import { DomainError } from '@sniplink/domain';
import { createLogger, loadConfig } from '@sniplink/platform';
import { allowedOrigins, startRuntime } from '../runtime';
import { progressBar } from './progress-bar';
import { EXIT_NO_ACCOUNT, EXIT_USAGE } from './run-cli';

const USAGE =
  'npm run import -- --format bitly|yourls|yourls-csv|yourls-sql|kutt|shlink-csv|shlink-json|dub --owner <email> [--conflicts skip|new-code] <file>';

/** Short names an operator may type for a format. */
const ALIASES: Record<string, (file: string) => string> = {
  yourls: (file) => (file.toLowerCase().endsWith('.sql') ? 'yourls-sql' : 'yourls-csv'),
  shlink: (file) => (file.toLowerCase().endsWith('.json') ? 'shlink-json' : 'shlink-csv'),
};

function parse(argv: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        format: { type: 'string' },
        owner: { type: 'string' },
        conflicts: { type: 'string', default: 'skip' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
    if (values.help) return 'help' as const;
    const [file, ...extra] = positionals;
    const conflicts = values.conflicts;
    if (!values.format || !values.owner || !file || extra.length > 0) return null;
    if (conflicts !== 'skip' && conflicts !== 'new-code') return null;
    const format = ALIASES[values.format]?.(file) ?? values.format;
    return { format, owner: values.owner, file, conflicts } as const;
  } catch {
    return null;
  }
}

async function main(argv: string[]): Promise<number> {
  const args = parse(argv);
  if (args === 'help') {
    process.stdout.write(`usage: ${USAGE}\n`);
    return 0;
  }
  if (args === null) {
    process.stderr.write(`usage: ${USAGE}\n`);
    return EXIT_USAGE;
  }
  const size = await stat(args.file).catch(() => null);
  if (!size?.isFile()) {
    process.stderr.write(`No such file: ${args.file}\n`);
    return EXIT_USAGE;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const runtime = await startRuntime(config, log, { projections: true });
  try {
    const ownerId = await runtime.accounts.findUserIdByEmail(args.owner);
    if (!ownerId) {
      process.stderr.write('No account with that e-mail address\n');
      return EXIT_NO_ACCOUNT;
    }
    const { imports, jobs } = importsFor({
      db: runtime.database.db.withTables<ImportTables>(),
      links: runtime.links,
      accounts: runtime.accounts,
      ownOrigins: allowedOrigins(config),
      clock: runtime.clock,
      ids: runtime.ids,
      log,
      readModels: runtime.progress,
    });
    const requester = { ownerId, actor: 'operator', outsidePlan: true };
    const uploaded = await imports.upload(requester, args.format, args.file, createReadStream(args.file));
    const { preview } = uploaded;
    process.stderr.write(
      `${preview.rows} rows: ${preview.links} links, ${preview.codesTaken} codes taken here, ${preview.invalid} invalid\n`,
    );
    for (const problem of preview.problems.slice(0, 10)) {
      process.stderr.write(`  row ${problem.row}: ${problem.reason}\n`);
    }
    await imports.start(ownerId, uploaded.id, { conflicts: args.conflicts });
    const bar = progressBar();
    bar.start('Importing links', uploaded.preview.links);
    let shown = 0;
    await jobs.runOne(uploaded.id, ({ processed }) => {
      bar.advance(processed - shown);
      shown = processed;
    });
    bar.stop();
    const { progress } = await imports.get(ownerId, uploaded.id);
    process.stdout.write(
      `Imported ${progress.imported + progress.renamed} links (${progress.renamed} under a new code), skipped ${progress.skipped}, failed ${progress.failed}, ${preview.invalid} invalid; import ${uploaded.id}\n`,
    );
    return 0;
  } finally {
    await runtime.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof DomainError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
