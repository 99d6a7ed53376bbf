import { randomBytes } from 'node:crypto';
import type { Availability, CreateLinkBody, Link, UpdateLinkBody } from '@sniplink/contracts';
import {
  assertCustomCode,
  checkTargetUrl,
  customCodeProblem,
  generateCode,
  isCodeFreeFor,
  linkDecider,
  linkStreamId,
  NotFoundError,
  shortCodeDecider,
  shortCodeStreamId,
  ValidationError,
} from '@sniplink/domain';
import {
  type Database,
  type EventStore,
  handleCommand,
  type LinkRow,
  type LogPosition,
  loadState,
} from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { AccountService, ReadModelWaiter } from '../auth/accounts';

export interface LinkServiceDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  accounts: Pick<AccountService, 'command'>;
  readModels: ReadModelWaiter;
  /** `{PUBLIC_URL}`: short URLs are `{publicUrl}/s/{code}`. */
  publicUrl: string;
  /** This site's origins: a target that is a short link of this site would loop. */
  ownOrigins: readonly string[];
  /** Human clicks per link, from the analytics read model. */
  clickCounts(linkIds: string[]): Promise<Map<string, number>>;
  randomBytes?: (count: number) => Uint8Array;
}

export interface ListOptions {
  search?: string;
  limit?: number;
  offset?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GENERATED_CODE_ATTEMPTS = 5;

/**
 * Links: create (claim a code, count the link against the plan, record it), change, delete, duplicate,
 * list. Each step is one stream's optimistic append; a later step's failure undoes the earlier ones.
 */
export class LinkService {
  private readonly random: (count: number) => Uint8Array;

  constructor(private readonly deps: LinkServiceDeps) {
    this.random = deps.randomBytes ?? randomBytes;
  }

  async create(
    ownerId: string,
    body: CreateLinkBody,
    options: { origin?: 'dashboard' | 'duplicate' | 'demo'; countAgainstPlan?: boolean } = {},
  ): Promise<Link> {
    const originalUrl = checkTargetUrl(body.originalUrl, this.deps.ownOrigins);
    const title = cleanTitle(body.title) ?? null;
    const custom = body.shortCode?.trim() || undefined;
    if (custom !== undefined) assertCustomCode(custom);
    const linkId = uuidv7();
    const code = await this.claimCode(custom, ownerId, linkId);
    const countAgainstPlan = options.countAgainstPlan ?? true;
    try {
      if (countAgainstPlan) {
        await this.deps.accounts.command(ownerId, { type: 'TakeLinkSlot', linkId, month: currentMonth() });
      }
    } catch (error) {
      await this.releaseCode(code, linkId);
      throw error;
    }
    try {
      const created = await handleCommand(this.deps.eventStore, linkStreamId(linkId), linkDecider, {
        type: 'CreateLink',
        linkId,
        ownerId,
        code,
        originalUrl,
        title,
        origin: options.origin ?? 'dashboard',
      });
      await this.waitForLinks(created.position);
    } catch (error) {
      if (countAgainstPlan)
        await this.deps.accounts.command(ownerId, { type: 'ReleaseLinkSlot', linkId, reason: 'abandoned' });
      await this.releaseCode(code, linkId);
      throw error;
    }
    return this.get(ownerId, linkId);
  }

  /** Changes title, target and code; an absent field is unchanged. A code change claims first, retires last. */
  async update(ownerId: string, linkId: string, body: UpdateLinkBody): Promise<Link> {
    const current = await this.ownLink(ownerId, linkId);
    const originalUrl =
      body.originalUrl === undefined ? undefined : checkTargetUrl(body.originalUrl, this.deps.ownOrigins);
    const title = cleanTitle(body.title);
    const newCode = body.shortCode?.trim();
    const codeChanges = newCode !== undefined && newCode !== current.code;
    if (codeChanges) assertCustomCode(newCode);
    const sameStream = codeChanges && newCode.toLowerCase() === current.code.toLowerCase();
    if (codeChanges && !sameStream) await this.claimCode(newCode, ownerId, linkId);
    let position: LogPosition | null = null;
    const run = async (command: Parameters<typeof linkDecider.decide>[0]) => {
      const result = await handleCommand(this.deps.eventStore, linkStreamId(linkId), linkDecider, command);
      position = result.position ?? position;
    };
    try {
      if (title !== undefined) await run({ type: 'RetitleLink', ownerId, title });
      if (originalUrl !== undefined) await run({ type: 'RetargetLink', ownerId, originalUrl });
      if (codeChanges) await run({ type: 'ChangeLinkCode', ownerId, code: newCode });
    } catch (error) {
      if (codeChanges && !sameStream) await this.releaseCode(newCode, linkId);
      throw error;
    }
    if (codeChanges && !sameStream) await this.retireCode(current.code, linkId);
    await this.waitForLinks(position);
    return this.get(ownerId, linkId);
  }

  async remove(ownerId: string, linkId: string): Promise<void> {
    const current = await this.ownLink(ownerId, linkId);
    const deleted = await handleCommand(this.deps.eventStore, linkStreamId(linkId), linkDecider, {
      type: 'DeleteLink',
      ownerId,
    });
    await this.retireCode(current.code, linkId);
    if (!ownerId.startsWith('visitor-')) {
      await this.deps.accounts.command(ownerId, { type: 'ReleaseLinkSlot', linkId, reason: 'deleted' });
    }
    await this.waitForLinks(deleted.position);
  }

  /** A new link to the same place with the same title and a new generated code; it counts as a create. */
  async duplicate(ownerId: string, linkId: string): Promise<Link> {
    const source = await this.ownLink(ownerId, linkId);
    return this.create(
      ownerId,
      { originalUrl: source.original_url, title: source.title },
      { origin: 'duplicate' },
    );
  }

  async get(ownerId: string, linkId: string): Promise<Link> {
    const [link] = await this.toJson([await this.ownLink(ownerId, linkId)]);
    if (!link) throw new NotFoundError('Link not found');
    return link;
  }

  /** The owner's links, newest first; `search` matches title, target or code, ignoring case. */
  async list(ownerId: string, options: ListOptions = {}): Promise<Link[]> {
    let query = this.deps.db
      .selectFrom('rm_links')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('deleted', '=', false)
      .orderBy('created_at', 'desc')
      .orderBy('link_id', 'desc')
      .limit(Math.min(options.limit ?? 1_000, 1_000))
      .offset(options.offset ?? 0);
    const search = options.search?.trim();
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb('title', 'ilike', pattern),
          eb('original_url', 'ilike', pattern),
          eb('code', 'ilike', pattern),
        ]),
      );
    }
    return this.toJson(await query.execute());
  }

  async countOwned(ownerId: string): Promise<number> {
    const row = await this.deps.db
      .selectFrom('rm_links')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('owner_id', '=', ownerId)
      .where('deleted', '=', false)
      .executeTakeFirstOrThrow();
    return row.count;
  }

  /** Whether the caller may put a link on this code now, with a message for the edit dialog. */
  async availability(ownerId: string, code: string): Promise<Availability> {
    const problem = customCodeProblem(code);
    if (problem) return { available: false, message: problem };
    const state = await loadState(this.deps.eventStore, shortCodeStreamId(code), shortCodeDecider);
    return isCodeFreeFor(state, ownerId)
      ? { available: true, message: 'This short code is available' }
      : { available: false, message: 'This short code is already taken' };
  }

  shortUrl(code: string): string {
    return `${this.deps.publicUrl}/s/${code}`;
  }

  async toJson(rows: LinkRow[]): Promise<Link[]> {
    const clicks = await this.deps.clickCounts(rows.map((row) => row.link_id));
    return rows.map((row) => ({
      id: row.link_id,
      title: row.title,
      originalUrl: row.original_url,
      shortCode: row.code,
      shortUrl: this.shortUrl(row.code),
      clickCount: clicks.get(row.link_id) ?? 0,
      createdAt: row.created_at.toISOString(),
    }));
  }

  /** The link if it is the caller's and live; anything else (malformed id, another's, deleted) is 404. */
  async ownLink(ownerId: string, linkId: string): Promise<LinkRow> {
    if (!UUID.test(linkId)) throw new NotFoundError('Link not found');
    const row = await this.deps.db
      .selectFrom('rm_links')
      .selectAll()
      .where('link_id', '=', linkId)
      .where('owner_id', '=', ownerId)
      .where('deleted', '=', false)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Link not found');
    return row;
  }

  /** Claims the custom code, or a fresh generated one (a collision just draws another). */
  private async claimCode(custom: string | undefined, ownerId: string, linkId: string): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const code = custom ?? generateCode(this.random);
      try {
        await handleCommand(this.deps.eventStore, shortCodeStreamId(code), shortCodeDecider, {
          type: 'ClaimCode',
          code,
          ownerId,
          linkId,
        });
        return code;
      } catch (error) {
        const collided = custom === undefined && (error as { code?: string }).code === 'SHORT_CODE_TAKEN';
        if (!collided || attempt >= GENERATED_CODE_ATTEMPTS) throw error;
      }
    }
  }

  private async releaseCode(code: string, linkId: string): Promise<void> {
    await handleCommand(this.deps.eventStore, shortCodeStreamId(code), shortCodeDecider, {
      type: 'ReleaseCode',
      linkId,
    });
  }

  private async retireCode(code: string, linkId: string): Promise<void> {
    await handleCommand(this.deps.eventStore, shortCodeStreamId(code), shortCodeDecider, {
      type: 'RetireCode',
      linkId,
    });
  }

  private async waitForLinks(position: LogPosition | null): Promise<void> {
    if (position) await this.deps.readModels.waitFor('links', position);
  }
}

/** A title of only spaces is no title. Undefined stays undefined (unchanged). */
function cleanTitle(title: string | null | undefined): string | null | undefined {
  if (title === undefined) return undefined;
  const trimmed = title?.trim() ?? '';
  if (trimmed.length > 200) throw new ValidationError('title must be at most 200 characters', 'title');
  return trimmed === '' ? null : trimmed;
}

const currentMonth = () => new Date().toISOString().slice(0, 7);
