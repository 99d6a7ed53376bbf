import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  currentProcessRecord,
  isOwnerAlive,
  type Logger,
  type OwnerRecord,
  type StreamMessage,
} from '@sniplink/platform';

/** A batch of clicks as it was (or is to be) published: its publish id makes a replay count once. */
export interface SpilledBatch {
  id: string;
  messages: StreamMessage<string>[];
}

/** A closed segment's batches, oldest first; `tornLines` were skipped (a crash cut the last write). */
export interface SpillSegment {
  file: string;
  batches: SpilledBatch[];
  tornLines: number;
}

export class SpillFullError extends Error {
  constructor(maxBytes: number) {
    super(`the click spill holds its ${maxBytes} bytes (CLICK_SPILL_MAX_MB)`);
    this.name = 'SpillFullError';
  }
}

export interface SpillFilesOptions {
  /** DATA_DIR/click-spill. */
  dir: string;
  maxBytes: number;
  /** Where the clicks are meant to go (the database's address): a file meant for another is left alone. */
  target: string;
  log: Logger;
  /** A segment is closed (and may be replayed) from this size on; default 4 MB. */
  segmentBytes?: number;
}

const FORMAT = 1;
const SUFFIX = '.spill';
const DEFAULT_SEGMENT_BYTES = 4 * 1024 * 1024;

/**
 * Clicks that cannot be published yet, in files of this process: `<pid>-<start ticks>-<seq>.spill`, a
 * header line, then one JSON line per batch (`{"id", "m": [[key, value], ...]}`). Each batch is appended
 * and fdatasync'ed before `append` resolves, so a batch the caller counts as spilled survives a crash; a
 * line cut by one is skipped on replay. Segments are closed at `segmentBytes` and replayed oldest first;
 * a segment is deleted only after every batch in it was published. At `open` the files of processes that
 * are gone (a killed app, or an earlier run) are taken over by renaming them to this process's name.
 * File operations run one at a time.
 */
export class SpillFiles {
  private readonly owner: OwnerRecord = currentProcessRecord();
  private readonly segmentBytes: number;
  /** Closed segments of this process, oldest first, with their sizes. */
  private readonly closed: { file: string; bytes: number }[] = [];
  private current: { file: string; bytes: number; batches: number; handle: FileHandleLike } | undefined;
  private nextSeq = 0;
  private bytes = 0;
  private appendsQueued = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SpillFilesOptions) {
    this.segmentBytes = options.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
  }

  /** Creates the directory and takes over the files of processes that are gone (a previous run's spill). */
  open(): Promise<void> {
    return this.inTurn(async () => {
      await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
      const names = (await readdir(this.options.dir)).filter((name) => name.endsWith(SUFFIX)).sort(bySeq);
      for (const name of names) {
        const writer = ownerOf(name);
        if (writer && writer.pid !== this.owner.pid && isOwnerAlive(writer)) continue; // its own to replay
        await this.adopt(name);
      }
    });
  }

  /** True while a batch is on disk or on its way there: new batches then go behind it, in order. */
  hasBatches(): boolean {
    return this.appendsQueued > 0 || this.closed.length > 0 || (this.current?.batches ?? 0) > 0;
  }

  stats(): { files: number; bytes: number; maxBytes: number } {
    return {
      files: this.closed.length + (this.current ? 1 : 0),
      bytes: this.bytes,
      maxBytes: this.options.maxBytes,
    };
  }

  /** Appends a batch durably; SpillFullError past `maxBytes`, or the file system's error. */
  append(batch: SpilledBatch): Promise<void> {
    this.appendsQueued++;
    return this.inTurn(async () => {
      const line = `${JSON.stringify({ id: batch.id, m: batch.messages.map((m) => [m.key, m.value]) })}\n`;
      const size = Buffer.byteLength(line);
      if (this.bytes + size > this.options.maxBytes) throw new SpillFullError(this.options.maxBytes);
      const segment = this.current ?? (await this.startSegment());
      try {
        await segment.handle.write(line);
        await segment.handle.datasync();
      } catch (error) {
        // A part of the line may be written: nothing may follow it in this file.
        await this.closeCurrent();
        throw error;
      }
      segment.bytes += size;
      segment.batches++;
      this.bytes += size;
      if (segment.bytes >= this.segmentBytes) await this.closeCurrent();
    }).finally(() => {
      this.appendsQueued--;
    });
  }

  /**
   * The oldest segment with its batches (closing the one being written when it is the only one), or
   * undefined when nothing is spilled. A file that cannot be read is set aside (left on disk).
   */
  nextSegment(): Promise<SpillSegment | undefined> {
    return this.inTurn(async () => {
      if (this.closed.length === 0 && (this.current?.batches ?? 0) > 0) await this.closeCurrent();
      for (let next = this.closed[0]; next; next = this.closed[0]) {
        const segment = await this.read(next.file);
        if (segment) return segment;
        this.forget(next.file);
      }
      return undefined;
    });
  }

  /** Deletes a replayed segment: every batch in it is in the click stream. */
  remove(segment: SpillSegment): Promise<void> {
    return this.inTurn(async () => {
      await unlink(path.join(this.options.dir, segment.file));
      this.forget(segment.file);
    });
  }

  /** Closes the file being written (its batches stay for the next run, or the next `open`). */
  close(): Promise<void> {
    return this.inTurn(() => this.closeCurrent());
  }

  // ---- segments ------------------------------------------------------------------------------------

  private async startSegment() {
    const file = this.nextFileName();
    const header = `${JSON.stringify({ clickSpill: FORMAT, target: this.options.target })}\n`;
    const handle = await open(path.join(this.options.dir, file), 'a', 0o600);
    try {
      await handle.write(header);
      await handle.datasync();
      await syncDirectory(this.options.dir); // the new name survives a crash too
    } catch (error) {
      await handle.close().catch(() => {});
      await unlink(path.join(this.options.dir, file)).catch(() => {});
      throw error;
    }
    const size = Buffer.byteLength(header);
    this.bytes += size;
    this.current = { file, bytes: size, batches: 0, handle };
    return this.current;
  }

  private async closeCurrent(): Promise<void> {
    const segment = this.current;
    if (!segment) return;
    this.current = undefined;
    await segment.handle.close().catch(() => {});
    if (segment.batches > 0) this.closed.push({ file: segment.file, bytes: segment.bytes });
    else await this.discard(segment.file, segment.bytes);
  }

  /**
   * Takes a file of a process that is gone by renaming it to this one's name (a second process starting
   * now cannot take it too). A file for another database stays where it is; one cut before its header
   * was complete holds no clicks and is deleted.
   */
  private async adopt(name: string): Promise<void> {
    const from = path.join(this.options.dir, name);
    const header = await readHeader(from);
    if (header === 'gone') return; // another process took it first
    if (header === 'torn') {
      await unlink(from).catch(() => {});
      return;
    }
    if (header?.clickSpill !== FORMAT || header.target !== this.options.target) {
      this.options.log.warn(
        { file: name, target: header?.target },
        'click spill file is not for this database; left in place',
      );
      return;
    }
    const file = this.nextFileName();
    try {
      await rename(from, path.join(this.options.dir, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another process took it first
      throw error;
    }
    const { size } = await stat(path.join(this.options.dir, file));
    this.closed.push({ file, bytes: size });
    this.bytes += size;
    this.options.log.info({ file: name, bytes: size }, 'replaying clicks spilled by an earlier process');
  }

  private nextFileName(): string {
    const seq = String(this.nextSeq++).padStart(8, '0');
    return `${this.owner.pid}-${this.owner.startTicks}-${seq}${SUFFIX}`;
  }

  /** A segment's batches, skipping a line a crash cut short; null when the file is gone or unreadable. */
  private async read(file: string): Promise<SpillSegment | null> {
    let text: string;
    try {
      text = await readFile(path.join(this.options.dir, file), 'utf8');
    } catch (error) {
      this.options.log.error({ err: error, file }, 'could not read a click spill file; leaving it in place');
      return null;
    }
    const ended = text.endsWith('\n');
    const lines = text.split('\n').slice(1, -1); // after the header; the last piece is '' or a cut line
    const batches: SpilledBatch[] = [];
    let tornLines = ended ? 0 : 1;
    for (const line of lines) {
      const batch = batchOf(parseJson(line));
      if (batch) batches.push(batch);
      else tornLines++;
    }
    if (tornLines > 0)
      this.options.log.warn({ file, tornLines }, 'skipped incomplete lines of a click spill file');
    return { file, batches, tornLines };
  }

  private forget(file: string): void {
    const index = this.closed.findIndex((segment) => segment.file === file);
    if (index === -1) return;
    this.bytes -= this.closed[index]?.bytes ?? 0;
    this.closed.splice(index, 1);
  }

  private async discard(file: string, bytes: number): Promise<void> {
    this.bytes -= bytes;
    await unlink(path.join(this.options.dir, file)).catch(() => {});
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

type FileHandleLike = Awaited<ReturnType<typeof open>>;

/** `<pid>-<start ticks>-<seq>.spill` -> the process that wrote it. */
function ownerOf(name: string): OwnerRecord | null {
  const match = /^(\d+)-(\d+)-\d+\.spill$/.exec(name);
  return match ? { pid: Number(match[1]), startTicks: Number(match[2]) } : null;
}

/** Oldest first across processes is not knowable; within one writer, by sequence. */
function bySeq(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function batchOf(value: unknown): SpilledBatch | null {
  const { id, m } = (value ?? {}) as { id?: unknown; m?: unknown };
  if (typeof id !== 'string' || !Array.isArray(m)) return null;
  const messages: StreamMessage<string>[] = [];
  for (const pair of m) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return null;
    messages.push({ key: pair[0], value: pair[1] });
  }
  return { id, messages };
}

type Header = { clickSpill?: unknown; target?: unknown } | 'torn' | 'gone' | undefined;

/** The header line of a spill file; 'torn' when the file ends before it does, 'gone' when it is. */
async function readHeader(file: string): Promise<Header> {
  let handle: FileHandleLike;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.indexOf('\n');
    if (end === -1) return bytesRead < 4096 ? 'torn' : undefined;
    return parseJson(text.slice(0, end)) as Header;
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
