import { pino } from 'pino';

export type Logger = pino.Logger;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The one logger factory: JSON lines on stdout, as an operator's log shipper expects. */
export function createLogger(level: LogLevel = 'info', name = 'sniplink'): Logger {
  return pino({ level, name });
}
