import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { readProcessStat } from './process-info';

/**
 * The app process that owns (started, and will stop) the embedded server. The start time makes the record
 * immune to PID reuse: a recycled PID has a different start time.
 */
export interface OwnerRecord {
  pid: number;
  startTicks: number;
}

export type OwnershipClaim = { kind: 'claimed' } | { kind: 'held'; owner: OwnerRecord };

export function currentProcessRecord(): OwnerRecord {
  const stat = readProcessStat(process.pid);
  if (!stat) throw new Error('Cannot read /proc/self/stat');
  return { pid: process.pid, startTicks: stat.startTicks };
}

export function isOwnerAlive(owner: OwnerRecord): boolean {
  const stat = readProcessStat(owner.pid);
  return stat !== null && stat.state !== 'Z' && stat.startTicks === owner.startTicks;
}

export function isCurrentProcess(owner: OwnerRecord): boolean {
  return owner.pid === process.pid;
}

/**
 * Makes this process the owner, unless a live process already is. A record of a dead process (an app that
 * was killed) is removed and the claim retried.
 */
export function claimOwnership(ownerFile: string): OwnershipClaim {
  const record = JSON.stringify(currentProcessRecord());
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusively(ownerFile, record)) return { kind: 'claimed' };
    const text = readOrNull(ownerFile);
    if (text === null) continue; // its owner just released it
    const owner = parseOwner(text);
    if (owner && isOwnerAlive(owner)) return { kind: 'held', owner };
    removeIfUnchanged(ownerFile, text);
  }
  throw new Error(`Cannot claim ${ownerFile}: it keeps changing`);
}

/** Removes the owner file if (and only if) it names this process. */
export function releaseOwnership(ownerFile: string): void {
  const text = readOrNull(ownerFile);
  const owner = text === null ? null : parseOwner(text);
  if (text !== null && owner && isCurrentProcess(owner)) removeIfUnchanged(ownerFile, text);
}

/** Write a temp file, then hard-link it into place: the link fails if the file exists, and is never partial. */
function createExclusively(file: string, content: string): boolean {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function parseOwner(text: string): OwnerRecord | null {
  try {
    const value = JSON.parse(text) as Partial<OwnerRecord>;
    return Number.isInteger(value.pid) && Number.isInteger(value.startTicks) ? (value as OwnerRecord) : null;
  } catch {
    return null;
  }
}

function removeIfUnchanged(file: string, expected: string): void {
  if (readOrNull(file) !== expected) return;
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
