import { SingleBar } from 'cli-progress';
import type { Progress } from '../backup/format';

/**
 * A progress bar on stderr (stdout keeps the one-line summary a script reads). On a terminal it redraws in
 * place; elsewhere (a log, CI) it prints its state every few seconds and once at the end of each step.
 */
export function progressBar(): Progress {
  let bar: SingleBar | undefined;
  return {
    start(label, total) {
      bar = new SingleBar({
        stream: process.stderr,
        format:
          total === null
            ? `${label.padEnd(18)} {value} so far{note}`
            : `${label.padEnd(18)} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left{note}`,
        barsize: 30,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 5_000,
        etaBuffer: 50,
      });
      bar.start(total ?? 0, 0, { note: '' });
    },
    advance(by) {
      bar?.increment(by);
    },
    note(text) {
      bar?.update({ note: ` | ${text}` });
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
