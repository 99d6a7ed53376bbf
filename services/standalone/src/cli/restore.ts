/**
 * `npm run restore -- FILE`: loads a backup into an empty database (DATABASE_URL's, or the embedded server
 * in DATA_DIR) and rebuilds every read model from the restored event log. Refuses a database that holds
 * data, and a file that is damaged or cut short, before it writes anything. Exit codes: 0 restored,
 * 1 failed, 2 refused (the sentence says why), 64 usage.
 */
import { InvalidEventError, UnreadableEventError } from '@sniplink/contracts';
import { Keyring, PgAdvisoryLocks } from '@sniplink/platform';
import { rebuildProjections } from '@sniplink/projections';
import { RestoreError, restoreBackup } from '../backup/restore';
import { appProjections, eventRegistry, migrations } from '../features';
import { runFileCli } from './file-cli';
import { progressBar } from './progress-bar';

runFileCli({
  usage: 'npm run restore -- FILE',
  explained: [
    { type: RestoreError, exitCode: 2 },
    { type: InvalidEventError, exitCode: 1, prefix: 'Restore failed: ' },
    { type: UnreadableEventError, exitCode: 1, prefix: 'Restore failed: ' },
  ],
  async run(file, storage, { log }) {
    const { database, eventStore } = storage;
    const progress = progressBar();
    const restored = await restoreBackup(
      {
        pool: database.pool,
        db: database.db,
        eventStore,
        registry: eventRegistry,
        migrations,
        describe: storage.describeDatabase,
      },
      file,
      progress,
    );
    const projections = appProjections({ keyring: new Keyring(database.db) });
    progress.start('read models', projections.length);
    let applied = 0;
    await rebuildProjections(
      { db: database.db, locks: new PgAdvisoryLocks({ pool: database.pool }), eventStore, log },
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
    return `restored ${restored.events} events and ${restored.rows} rows of ${restored.header.tables.length} tables from ${file} (made ${restored.header.createdAt}) into ${storage.describeDatabase}, and rebuilt ${projections.length} read models`;
  },
});
