import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type DataExport, EXPORT_PARTS, EXPORT_VALID_HOURS, exportEndpoints } from '@sniplink/contracts';
import { NotFoundError } from '@sniplink/domain';
import type { Clock, IdSource, Logger } from '@sniplink/platform';
import { ZipFile } from 'yazl';
import {
  clickFiles,
  type ExportFile,
  type ExportSources,
  linkFiles,
  profileFiles,
  type TicketWithMessages,
  ticketFiles,
} from './contents';
import type { ExportRow, ExportStore } from './export-store';

const HOUR_MS = 3_600_000;
/**
 * A build writes its progress at every step; one silent this long ended with the process that ran it
 * (a restart), so it shows as failed and a new request starts again.
 */
const STALE_AFTER_MS = 2 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ExportServiceDeps {
  store: ExportStore;
  sources: ExportSources;
  clock: Clock;
  ids: IdSource;
  log: Logger;
}

/**
 * "Download my data": builds a user's ZIP (profile, links with their controls, daily clicks, tickets and
 * their messages, each as JSON and CSV) in the background, and serves it to its owner for a day.
 */
export class ExportService {
  private readonly building = new Set<Promise<void>>();

  constructor(private readonly deps: ExportServiceDeps) {}

  /** The user's latest export as the card shows it, or null (none, or expired). */
  async latest(userId: string): Promise<DataExport | null> {
    const row = await this.deps.store.latestOf(userId);
    return row ? this.shown(row) : null;
  }

  /**
   * Starts an export unless one is still building (then that one is the answer): the previous file is
   * deleted, so a user holds one export at a time.
   */
  async start(userId: string): Promise<DataExport> {
    const { store, clock, ids } = this.deps;
    const current = await store.latestOf(userId);
    const shownNow = current && this.shown(current);
    if (current && shownNow?.status === 'building') return shownNow;
    const exportId = ids.newId();
    await store.create({ exportId, userId, total: EXPORT_PARTS.length, now: clock.now() });
    await store.deleteOf(userId, exportId);
    const build = this.build(userId, exportId).finally(() => this.building.delete(build));
    this.building.add(build);
    const created = await store.byId(userId, exportId);
    if (!created) throw new NotFoundError('No such export');
    return this.shown(created) as DataExport;
  }

  /** The ZIP of a ready export of the user's, with its size: another user's, or one past its day, is not found. */
  async download(
    userId: string,
    exportId: string,
  ): Promise<{ zip: Readable; size: number; createdAt: Date }> {
    const row = UUID.test(exportId) ? await this.deps.store.byId(userId, exportId) : undefined;
    if (!row || this.shown(row)?.status !== 'ready') {
      throw new NotFoundError('No such export, or its download link has expired');
    }
    return { zip: this.deps.store.partsOf(exportId), size: Number(row.size), createdAt: row.created_at };
  }

  /** An erased account leaves no export behind. */
  async eraseAllOf(userId: string): Promise<void> {
    await this.deps.store.deleteOf(userId);
  }

  /** Lets the builds under way finish (a test, a graceful stop). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.building]);
  }

  /** Deletes expired and abandoned exports, and those of accounts erased without the app (the CLI). */
  async sweep(accountExists: (userId: string) => Promise<boolean>): Promise<number> {
    const now = this.deps.clock.now();
    let deleted = await this.deps.store.deleteOutdated(now, new Date(now.getTime() - 24 * HOUR_MS));
    for (const userId of await this.deps.store.holders(1_000)) {
      if (!(await accountExists(userId))) deleted += await this.deps.store.deleteOf(userId);
    }
    return deleted;
  }

  private shown(row: ExportRow): DataExport | null {
    const now = this.deps.clock.now();
    if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return null;
    const stale = row.status === 'building' && now.getTime() - row.updated_at.getTime() > STALE_AFTER_MS;
    const ready = row.status === 'ready';
    return {
      id: row.export_id,
      status: stale ? 'failed' : row.status,
      done: row.done,
      total: row.total,
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at?.toISOString() ?? null,
      downloadUrl: ready ? exportEndpoints.downloadExport.path.replace(':id', row.export_id) : null,
      size: ready ? Number(row.size) : null,
    };
  }

  private async build(userId: string, exportId: string): Promise<void> {
    const { store, clock, log } = this.deps;
    try {
      const zip = new ZipFile();
      const { sink, written } = store.partWriter(exportId);
      const stored = pipeline(zip.outputStream, sink);
      const mtime = clock.now();
      let done = 0;
      for (const files of this.steps(userId)) {
        for (const file of await files) zip.addBuffer(Buffer.from(file.text, 'utf8'), file.name, { mtime });
        await store.progress(exportId, ++done, clock.now());
      }
      zip.end();
      await stored;
      const now = clock.now();
      await store.finish(
        exportId,
        await written,
        now,
        new Date(now.getTime() + EXPORT_VALID_HOURS * HOUR_MS),
      );
    } catch (err) {
      // An erasure meanwhile deleted the row (its parts can no longer be stored): nothing is left to mark.
      log.error({ err, exportId }, 'building a data export failed');
      await store.fail(exportId, clock.now()).catch(() => undefined);
    }
  }

  /** The ZIP's files, one step of EXPORT_PARTS at a time, each read when its turn comes. */
  private *steps(userId: string): Generator<Promise<ExportFile[]>> {
    const { sources } = this.deps;
    yield sources.profile(userId).then(profileFiles);
    const links = sources.links(userId);
    yield links.then(linkFiles);
    yield links.then(async (all) => {
      const codes = new Map(all.map((link) => [link.id, link.shortCode]));
      const days = await sources.dailyClicks([...codes.keys()]);
      return clickFiles(days.map((day) => ({ ...day, shortCode: codes.get(day.linkId) ?? '' })));
    });
    yield sources.tickets(userId).then(async (tickets) => {
      const withMessages: TicketWithMessages[] = [];
      for (const ticket of tickets) {
        withMessages.push({ ...ticket, messages: await sources.messages(userId, ticket.id) });
      }
      return ticketFiles(withMessages);
    });
  }
}
