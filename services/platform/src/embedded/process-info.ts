import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The fields of /proc/<pid>/stat that tell whether a PID still names the process we think it does. */
export interface ProcessStat {
  pid: number;
  comm: string;
  /** R, S, D, ... ; Z = zombie (exited, not yet reaped), X = dead. */
  state: string;
  ppid: number;
  /** Field 22: start time in clock ticks since boot. Together with the PID it identifies a process. */
  startTicks: number;
}

export function readProcessStat(pid: number): ProcessStat | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm (field 2) is in parentheses and may itself contain spaces and ')', so cut at the last ')'.
  const commEnd = text.lastIndexOf(')');
  const fields = text.slice(commEnd + 2).split(' '); // fields[0] is field 3
  return {
    pid,
    comm: text.slice(text.indexOf('(') + 1, commEnd),
    state: fields[0] ?? '',
    ppid: Number(fields[1]),
    startTicks: Number(fields[19]),
  };
}

/**
 * True while the process exists and has not exited. A zombie counts as gone: in containers PID 1 often
 * does not reap re-parented orphans, so an exited postmaster can stay a zombie forever.
 */
export function isProcessRunning(pid: number): boolean {
  const stat = readProcessStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

let clockTicksPerSecond: number | undefined;

function clockTicks(): number {
  if (clockTicksPerSecond === undefined) {
    const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const parsed = Number.parseInt(result.stdout ?? '', 10);
    clockTicksPerSecond = Number.isFinite(parsed) && parsed > 0 ? parsed : 100;
  }
  return clockTicksPerSecond;
}

function bootTimeEpochSeconds(): number {
  const match = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
  return Number(match?.[1] ?? 0);
}

/** When the process started, in seconds since the epoch (precision: a second). */
export function processStartEpochSeconds(stat: ProcessStat): number {
  return bootTimeEpochSeconds() + stat.startTicks / clockTicks();
}

export function childPidsOf(parentPid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProcessStat(Number(entry)))
    .filter((stat): stat is ProcessStat => stat !== null && stat.ppid === parentPid)
    .map((stat) => stat.pid);
}

/** Sends a signal; a target that is already gone is not an error. A negative PID names a process group. */
export function sendSignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Polls until the process has exited; false when it still runs after timeoutMs. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}
