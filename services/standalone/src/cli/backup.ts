/**
 * `npm run backup -- FILE`: writes everything that is the source of truth (the event log, the click log and
 * its roll-ups, the key ring, settings, credentials, sessions) to FILE, a compressed and versioned backup.
 * Runs next to a running app (its reads are one consistent snapshot) or without one: on the embedded
 * default it attaches to the running app's server, or starts the server itself. Exit codes: 0 written,
 * 1 failed (nothing left at FILE), 64 usage.
 */
import path from 'node:path';
import { ConfigError, createLogger, Keyring, loadConfig } from '@sniplink/platform';
import { BackupError, writeBackup } from '../backup/backup';
import { appProjections, eventRegistry } from '../features';
import { openStorage } from '../runtime';
import { progressBar } from './progress-bar';
import { EXIT_USAGE } from './run-cli';

const USAGE = 'npm run backup -- FILE';

async function main(argv: string[]): Promise<number> {
  const [file] = argv;
  if (argv.length !== 1 || !file || file.startsWith('-')) {
    process.stderr.write(`usage: ${USAGE}\n`);
    return EXIT_USAGE;
  }
  const target = path.resolve(file);
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const storage = await openStorage(config, log);
  try {
    const projections = appProjections({ keyring: new Keyring(storage.database.db) });
    const summary = await writeBackup(
      {
        pool: storage.database.pool,
        eventStore: storage.eventStore,
        eventStoreKind: config.eventStore.kind,
        clickStreamKind: config.clickStream.kind,
        registry: eventRegistry,
        derivedTables: new Set(projections.flatMap((projection) => projection.tables)),
      },
      target,
      progressBar(),
    );
    process.stdout.write(
      `backed up ${summary.events} events and ${summary.rows} rows of ${summary.tables} tables from ${storage.describeDatabase} to ${target} (${megabytes(summary.bytes)})\n`,
    );
    return 0;
  } finally {
    await storage.close();
  }
}

export const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${describeFailure(error)}\n`);
    process.exit(1);
  },
);

function describeFailure(error: unknown): string {
  if (error instanceof ConfigError || error instanceof BackupError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
