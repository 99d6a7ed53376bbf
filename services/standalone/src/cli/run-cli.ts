/**
 * What the operator commands on one account (`npm run user:plan`, `user:suspend`, `user:unsuspend`,
 * `user:erase`, `user:admin`) share: an e-mail address first, then the command's own arguments; one line on stdout;
 * exit codes a script can test. They run against the app's database, next to a running app or without one.
 */
import type { AccountService } from '@sniplink/api';
import { DomainError, NotFoundError } from '@sniplink/domain';
import { ConfigError, createLogger, enterChannel, loadConfig, runAs } from '@sniplink/platform';
import { startRuntime } from '../runtime';

export const EXIT_NO_ACCOUNT = 2;
/** EX_USAGE of sysexits.h: the command line was wrong. */
export const EXIT_USAGE = 64;

export interface AccountCli<Args> {
  /** The command line, as the usage message shows it. */
  usage: string;
  /** The arguments after the e-mail address, or null when they are wrong. */
  parse(rest: string[]): Args | null;
  /** Runs the command on the account and says what it did, in one line. */
  run(accounts: AccountService, target: { userId: string; email: string }, args: Args): Promise<string>;
}

/** Runs the command with this process's arguments and exits with its code. */
export function runAccountCli<Args>(cli: AccountCli<Args>): void {
  main(cli, process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${describeFailure(error)}\n`);
      process.exit(1);
    },
  );
}

async function main<Args>(cli: AccountCli<Args>, argv: string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(`usage: ${cli.usage}\n`);
    return 0;
  }
  const [email = '', ...rest] = argv;
  // The address check catches swapped arguments (`user:plan monthly ada@example.com`) as a usage error.
  const args = looksLikeEmail(email) ? cli.parse(rest) : null;
  if (args === null) {
    process.stderr.write(`usage: ${cli.usage}\n`);
    return EXIT_USAGE;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  // With projection runners, because commands wait for the users read model. Next to a running app they
  // stand by (the app's runners hold the locks) and the wait learns of the app's progress through NOTIFY;
  // with no app running they do the work themselves.
  const runtime = await startRuntime(config, log, { projections: true });
  try {
    const userId = await runtime.accounts.findUserIdByEmail(email);
    if (!userId) return noAccount();
    // The operator's doing: every event the command appends records `operator` as its actor and its
    // channel (the audit history lists them beside the admin console's actions).
    const said = await runAs('operator', () => {
      enterChannel('operator');
      return cli.run(runtime.accounts, { userId, email }, args);
    });
    process.stdout.write(`${said}\n`);
    return 0;
  } catch (error) {
    // The address is still claimed but the account is gone (say, an erasure that stopped halfway).
    if (error instanceof NotFoundError) return noAccount();
    throw error;
  } finally {
    await runtime.stop();
  }
}

function noAccount(): number {
  process.stderr.write('No account with that e-mail address\n');
  return EXIT_NO_ACCOUNT;
}

const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+$/.test(value);

function describeFailure(error: unknown): string {
  // A rule said no (the last admin, say): its message is the whole story.
  if (error instanceof ConfigError || error instanceof DomainError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
