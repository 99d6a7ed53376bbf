import { ConfigError, loadConfig } from '@sniplink/platform';

/** The configuration, or exit 2 with a message naming every bad variable. */
export function loadConfigOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** For `main().catch(...)`: says what could not start and why, then exits 1. */
export function reportStartFailure(what: string): (error: unknown) => never {
  return (error) => {
    process.stderr.write(
      `${what} could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  };
}
