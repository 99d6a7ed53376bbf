/**
 * `npm run backup -- FILE`: writes everything that is the source of truth (the event log, the click log and
 * its roll-ups, the key ring, settings, credentials, sessions) to FILE, a compressed and versioned backup.
 * Runs next to a running app (its reads are one consistent snapshot) or without one: on the embedded
 * default it attaches to the running app's server, or starts the server itself. Exit codes: 0 written,
 * 1 failed (nothing left at FILE), 64 usage.
 */
import { Keyring } from '@sniplink/platform';
import { BackupError, writeBackup } from '../backup/backup';
import { appProjections, eventRegistry } from '../features';
import { runFileCli } from './file-cli';
import { progressBar } from './progress-bar';

runFileCli({
  usage: 'npm run backup -- FILE',
  explained: [{ type: BackupError, exitCode: 1 }],
  async run(file, storage, { config }) {
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
      file,
      progressBar(),
    );
    const megabytes = (summary.bytes / 1_048_576).toFixed(1);
    return `backed up ${summary.events} events and ${summary.rows} rows of ${summary.tables} tables from ${storage.describeDatabase} to ${file} (${megabytes} MB)`;
  },
});
