import type {
  AdminDoc,
  AdminDocFields,
  AdminDocSection,
  AdminDocsSeedResult,
} from '@sniplink/contracts/admin-docs/api';
import { adminDocStream } from '@sniplink/contracts/admin-docs/events';
import { adminDocDecider, NotFoundError } from '@sniplink/domain';
import { commandHandler, type LogPosition } from '@sniplink/platform';
import { adminDocsProjection } from '@sniplink/projections/admin-docs/projection';
import { type AdminDocRow, adminDoc, adminDocs } from '@sniplink/projections/admin-docs/queries';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import type { ServiceDeps } from '../shared/service-deps';
import { starterDocs } from './starter-docs';

const notFound = () => new NotFoundError('No such doc');
/** A malformed id names no doc: 404, as an unknown one (never a database error on a uuid column). */
const isDocId = (id: string) => z.uuid().safeParse(id).success;

/** The namespace the starter docs' ids are made in: each seed gives a starter doc the same id. */
const STARTER_DOCS_NAMESPACE = '5b0c8e8a-2f1d-4c55-9a59-0d6f3c1e7a42';

/**
 * The console's internal documentation: each doc is a stream `admindoc-{docId}`; the list is the
 * `admin-docs` read model. The acting admin is the command context's actor, which the read model keeps as
 * who changed the doc last.
 */
export class AdminDocService {
  private readonly docs;

  constructor(private readonly deps: ServiceDeps) {
    this.docs = commandHandler(deps, {
      decider: adminDocDecider,
      stream: adminDocStream,
      projection: adminDocsProjection,
      guard: (docId) => {
        if (!isDocId(docId)) throw notFound();
      },
    });
  }

  async list(section?: AdminDocSection): Promise<AdminDoc[]> {
    return (await adminDocs(this.deps.db, section)).map(toJson);
  }

  async create(doc: AdminDocFields): Promise<AdminDoc> {
    const docId = this.deps.ids.newId();
    await this.docs.handle(docId, { type: 'CreateAdminDoc', docId, doc });
    return this.afterChange(docId);
  }

  async update(docId: string, doc: AdminDocFields): Promise<AdminDoc> {
    await this.docs.handle(docId, { type: 'EditAdminDoc', docId, doc });
    return this.afterChange(docId);
  }

  async remove(docId: string): Promise<void> {
    await this.docs.handle(docId, { type: 'DeleteAdminDoc', docId });
  }

  /**
   * Adds the starter docs, one after another, each under the id every seed gives it: one added by an
   * earlier seed (even if an admin deleted it since) is skipped, so a second seed creates nothing. The
   * answer waits once, for the last doc added.
   */
  async seed(): Promise<AdminDocsSeedResult> {
    let created = 0;
    let last: LogPosition | null = null;
    for (const { name, ...doc } of starterDocs) {
      const docId = uuidv5(name, STARTER_DOCS_NAMESPACE);
      const command = { type: 'SeedAdminDoc', docId, doc } as const;
      const { position } = await this.docs.handle(docId, command, { wait: false });
      if (position) {
        created++;
        last = position;
      }
    }
    if (last) await this.deps.readModels.waitFor(adminDocsProjection, last);
    const skipped = starterDocs.length - created;
    return { message: seedMessage(created, skipped), created, skipped };
  }

  /** The doc as the read model shows it once the command's wait is over; if that wait gave up, its stream's. */
  private async afterChange(docId: string): Promise<AdminDoc> {
    const row = await adminDoc(this.deps.db, docId);
    return row ? toJson(row) : this.fromStream(docId);
  }

  private async fromStream(docId: string): Promise<AdminDoc> {
    const recorded = await this.deps.eventStore.readStream(adminDocStream.id(docId));
    const state = recorded
      .filter((event) => adminDocDecider.events.includes(event))
      .reduce(adminDocDecider.evolve, adminDocDecider.initialState());
    const last = recorded.at(-1);
    if (state.status !== 'live' || !last) throw notFound();
    return {
      id: docId,
      ...state.doc,
      lastUpdatedBy: null,
      lastUpdatedById: last.actorId ?? 'system',
      updatedAt: last.occurredAt.toISOString(),
    };
  }
}

/** What the console's toast says after a seed. */
function seedMessage(created: number, skipped: number): string {
  if (created === 0) return 'Documentation is already seeded: no docs were created.';
  const docs = created === 1 ? '1 doc' : `${created} docs`;
  return skipped === 0
    ? `Seeded ${docs} across the six sections.`
    : `Seeded ${docs}; ${skipped} already existed.`;
}

const toJson = (row: AdminDocRow): AdminDoc => ({
  id: row.id,
  section: row.section,
  title: row.title,
  content: row.content,
  sortOrder: row.sortOrder,
  lastUpdatedBy: row.lastUpdatedByEmail,
  lastUpdatedById: row.lastUpdatedById,
  updatedAt: row.updatedAt.toISOString(),
});
