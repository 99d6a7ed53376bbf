import { IMPORT_FILE_LIMIT_BYTES } from '@sniplink/contracts';
import { DomainError } from '@sniplink/domain';
import type { ImportDb } from './tables';

/** The uploaded file is kept in pieces of this size: one piece in memory at a time, in and out. */
const PIECE_BYTES = 1024 * 1024;

/** 413: the file is over the limit (its size is the only thing it says of it). */
export class FileTooLargeError extends DomainError {
  readonly status = 413;
  constructor() {
    super('PAYLOAD_TOO_LARGE', `The file is larger than ${IMPORT_FILE_LIMIT_BYTES / 1024 / 1024} MB`);
  }
}

/** Stores the upload as it arrives, in pieces; answers its size. Over the limit: nothing is kept. */
export async function storeImportFile(
  db: ImportDb,
  importId: string,
  body: AsyncIterable<Uint8Array | string>,
): Promise<number> {
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    await db
      .insertInto('import_files')
      .values({ import_id: importId, seq, data: Buffer.concat(pending) })
      .execute();
    seq += 1;
    pending = [];
    pendingBytes = 0;
  };
  try {
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
      size += bytes.length;
      if (size > IMPORT_FILE_LIMIT_BYTES) throw new FileTooLargeError();
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= PIECE_BYTES) await flush();
    }
    await flush();
    return size;
  } catch (error) {
    await deleteImportFile(db, importId);
    throw error;
  }
}

/** The stored file, piece by piece, as the parsers read it. */
export async function* readImportFile(db: ImportDb, importId: string): AsyncIterable<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const piece = await db
      .selectFrom('import_files')
      .select('data')
      .where('import_id', '=', importId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!piece) return;
    yield piece.data;
  }
}

export async function deleteImportFile(db: ImportDb, importId: string): Promise<void> {
  await db.deleteFrom('import_files').where('import_id', '=', importId).execute();
}
