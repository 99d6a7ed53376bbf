/**
 * `npm run restore -- FILE`: loads a backup into an empty database (DATABASE_URL's, or the embedded server
 * in DATA_DIR) and rebuilds every read model from the restored event log. Refuses a database that holds
 * data, and a file that is damaged or cut short, before it writes anything. Exit codes: 0 restored,
 * 1 failed, 2 refused (the sentence says why), 64 usage.
 */
import path from 'node:path';
import { InvalidEventError, UnreadableEventError } from '@sniplink/contracts';
import { ConfigError, createLogger, Keyring, loadConfig, PgAdvisoryLocks } from '@sniplink/platform';
import { rebuildProjections } from '@sniplink/projections';
import { RestoreError, restoreBackup } from '../backup/restore';
import { appProjections, eventRegistry, migrations } from '../features';
import { openStorage } from '../runtime';
import { progressBar } from './progress-bar';
import { EXIT_USAGE } from './run-cli';

const USAGE = 'npm run restore -- FILE';
const EXIT_REFUSED = 2;

async function main(argv: string[]): Promise<number> {
  const [file] = argv;
  if (argv.length !== 1 || !file || file.startsWith('-')) {
    process.stderr.write(`usage: ${USAGE}\n`);
    return EXIT_USAGE;
  }
  const source = path.resolve(file);
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const storage = await openStorage(config, log);
  try {
    const progress = progressBar();
    const restored = await restoreBackup(
      {
        pool: storage.database.pool,
        db: storage.database.db,
        eventStore: storage.eventStore,
        registry: eventRegistry,
        migrations,
        describe: storage.describeDatabase,
      },
      source,
      progress,
    );
    const projections = appProjections({ keyring: new Keyring(storage.database.db) });
    progress.start('read models', projections.length);
    let applied = 0;
    await rebuildProjections(
      {
        db: storage.database.db,
        locks: new PgAdvisoryLocks({ pool: storage.database.pool }),
        eventStore: storage.eventStore,
        log,
      },
      projections,
      {
        onProgress: ({ projection, events, done }) => {
          if (done) {
            applied = 0;
            progress.advance(1);
            return;
          }
          applied += events;
          progress.note(`${projection}: ${applied} events`);
        },
      },
    );
    progress.stop();
    process.stdout.write(
      `restored ${restored.events} events and ${restored.rows} rows of ${restored.header.tables.length} tables from ${source} (made ${restored.header.createdAt}) into ${storage.describeDatabase}, and rebuilt ${projections.length} read models\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RestoreError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT_REFUSED;
    }
    throw error;
  } finally {
    await storage.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${describeFailure(error)}\n`);
    process.exit(1);
  },
);

function describeFailure(error: unknown): string {
  if (
    error instanceof ConfigError ||
    error instanceof InvalidEventError ||
    error instanceof UnreadableEventError
  ) {
    return `Restore failed: ${error.message}`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
