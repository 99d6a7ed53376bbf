/**
 * What `npm run backup` and `npm run restore` share: one FILE argument, the app's configuration, the
 * database and event store alone (nothing migrated, nothing run), a sentence rather than a stack trace
 * for what the operator can act on, and exit codes a script can test (64 usage).
 */
import path from 'node:path';
import { type Config, ConfigError, createLogger, type Logger, loadConfig } from '@sniplink/platform';
import { openStorage, type Storage } from '../runtime';
import { EXIT_USAGE } from './run-cli';

export interface FileCli {
  usage: string;
  /** Errors whose message is the whole story for the operator, with the exit code each gets. */
  explained: readonly { type: abstract new (...args: never[]) => Error; exitCode: number; prefix?: string }[];
  run(file: string, storage: Storage, context: { config: Config; log: Logger }): Promise<string>;
}

/** Runs the command with this process's arguments; prints its line on stdout and exits with its code. */
export function runFileCli(cli: FileCli): void {
  main(cli, process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      const known = cli.explained.find(({ type }) => error instanceof type);
      if (error instanceof ConfigError || known) {
        process.stderr.write(`${known?.prefix ?? ''}${(error as Error).message}\n`);
        process.exit(known?.exitCode ?? 1);
      }
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}

async function main(cli: FileCli, argv: string[]): Promise<number> {
  const [file] = argv;
  if (argv.length !== 1 || !file || file.startsWith('-')) {
    process.stderr.write(`usage: ${cli.usage}\n`);
    return EXIT_USAGE;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const storage = await openStorage(config, log);
  try {
    process.stdout.write(`${await cli.run(path.resolve(file), storage, { config, log })}\n`);
    return 0;
  } finally {
    await storage.close();
  }
}
