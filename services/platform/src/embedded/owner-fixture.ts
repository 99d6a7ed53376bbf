/**
 * Test fixture: an "app process" that owns an embedded server. Usage: node --import tsx owner-fixture.ts
 * <dataDir>. Prints `READY <json>` once the server answers; SIGTERM stops the server and exits.
 */
import { createLogger } from '../logging';
import { startEmbeddedPostgres } from './embedded-postgres';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: owner-fixture.ts <dataDir>');

const handle = await startEmbeddedPostgres({ dataDir, log: createLogger('error') });
process.stdout.write(
  `READY ${JSON.stringify({ pid: handle.pid, connectionString: handle.connectionString })}\n`,
);

process.on('SIGTERM', () => {
  handle.stop().then(() => process.exit(0));
});
setInterval(() => {}, 60_000); // stay alive until told otherwise
