import { Readable, Writable } from 'node:stream';
import type { Database } from '@sniplink/platform';
import type { Kysely, Selectable } from 'kysely';

interface UserExportsTable {
  export_id: string;
  user_id: string;
  status: 'building' | 'ready' | 'failed';
  done: number;
  total: number;
  size: string | number | null;
  created_at: Date;
  updated_at: Date;
  expires_at: Date | null;
}

interface UserExportPartsTable {
  export_id: string;
  part: number;
  bytes: Buffer;
}

type ExportTables = { user_exports: UserExportsTable; user_export_parts: UserExportPartsTable };
export type ExportRow = Selectable<UserExportsTable>;

/** A part of the ZIP as stored: small enough to hold one at a time, large enough to be few rows. */
const PART_BYTES = 256 * 1024;

/** The `user_exports` rows and their ZIP's parts (migration in ./migration.ts). */
export class ExportStore {
  private readonly db: Kysely<Database & ExportTables>;

  constructor(db: Kysely<Database>) {
    this.db = db.withTables<ExportTables>();
  }

  async create(row: { exportId: string; userId: string; total: number; now: Date }): Promise<void> {
    await this.db
      .insertInto('user_exports')
      .values({
        export_id: row.exportId,
        user_id: row.userId,
        status: 'building',
        done: 0,
        total: row.total,
        size: null,
        created_at: row.now,
        updated_at: row.now,
        expires_at: null,
      })
      .execute();
  }

  latestOf(userId: string): Promise<ExportRow | undefined> {
    return this.db
      .selectFrom('user_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  byId(userId: string, exportId: string): Promise<ExportRow | undefined> {
    return this.db
      .selectFrom('user_exports')
      .selectAll()
      .where('export_id', '=', exportId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async progress(exportId: string, done: number, now: Date): Promise<void> {
    await this.db
      .updateTable('user_exports')
      .set({ done, updated_at: now })
      .where('export_id', '=', exportId)
      .execute();
  }

  async finish(exportId: string, size: number, now: Date, expiresAt: Date): Promise<void> {
    await this.db
      .updateTable('user_exports')
      .set((eb) => ({ status: 'ready', done: eb.ref('total'), size, updated_at: now, expires_at: expiresAt }))
      .where('export_id', '=', exportId)
      .execute();
  }

  async fail(exportId: string, now: Date): Promise<void> {
    await this.db
      .updateTable('user_exports')
      .set({ status: 'failed', updated_at: now })
      .where('export_id', '=', exportId)
      .execute();
  }

  /** Deletes exports (and their parts): all of a user's, or, with `except`, all but that one. */
  async deleteOf(userId: string, except?: string): Promise<number> {
    let query = this.db.deleteFrom('user_exports').where('user_id', '=', userId);
    if (except) query = query.where('export_id', '<>', except);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes what expired, and what stopped building (a process that ended mid-way) before `staleBefore`. */
  async deleteOutdated(now: Date, staleBefore: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('user_exports')
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', now),
          eb.and([eb('status', '<>', 'ready'), eb('updated_at', '<', staleBefore)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The users who hold an export: housekeeping checks each still has an account. */
  async holders(limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('user_exports').select('user_id').distinct().limit(limit).execute();
    return rows.map((row) => row.user_id);
  }

  /**
   * A writable that stores what is written to it as the export's parts, in order; resolves `written` with
   * the byte count once the writer ends. Each part is inserted before more is accepted (backpressure).
   */
  partWriter(exportId: string): { sink: Writable; written: Promise<number> } {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let part = 0;
    let total = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const bytes = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.db
        .insertInto('user_export_parts')
        .values({ export_id: exportId, part: part++, bytes })
        .execute();
    };
    let resolveWritten: (bytes: number) => void = () => {};
    let rejectWritten: (error: unknown) => void = () => {};
    const written = new Promise<number>((resolve, reject) => {
      resolveWritten = resolve;
      rejectWritten = reject;
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        total += chunk.length;
        if (pendingBytes < PART_BYTES) return done();
        flush().then(() => done(), done);
      },
      final(done) {
        flush().then(() => done(), done);
      },
    });
    sink.on('finish', () => resolveWritten(total));
    sink.on('error', rejectWritten);
    return { sink, written };
  }

  /** The ZIP's bytes, read one part at a time. */
  partsOf(exportId: string): Readable {
    const db = this.db;
    async function* parts() {
      for (let part = 0; ; part++) {
        const row = await db
          .selectFrom('user_export_parts')
          .select('bytes')
          .where('export_id', '=', exportId)
          .where('part', '=', part)
          .executeTakeFirst();
        if (!row) return;
        yield row.bytes;
      }
    }
    return Readable.from(parts());
  }
}
