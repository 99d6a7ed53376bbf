import { DEMO_LINK_LIFETIME_DAYS, type DemoLink, type Link } from '@sniplink/contracts';
import { ForbiddenError, NotFoundError, ValidationError } from '@sniplink/domain';
import {
  type Clock,
  commandHandler,
  type Database,
  type EventStore,
  type LogPosition,
  type ReadModelWaiter,
} from '@sniplink/platform';
import { type LinkRow, linksReadModel, liveDemoLinksOf } from '@sniplink/projections';
import type { Kysely } from 'kysely';
import type { AccountService } from '../accounts/accounts';
import type { LinkService } from '../links/link-service';
import { linkCommands } from '../links/link-streams';
import { type CodeModeration, shortCodeClaims } from '../links/short-code-claims';
import type { DemoThrottle } from './demo-throttle';
import { visitorOwnerId } from './visitor';

export interface DemoServiceDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  accounts: Pick<AccountService, 'command' | 'takeLinkSlot'>;
  links: Pick<LinkService, 'create' | 'shortUrl'>;
  readModels: ReadModelWaiter;
  throttle: DemoThrottle;
  /** The admin's lists, asked by every claim of a code. */
  moderation: CodeModeration;
  /** Stamps the events appended, names the month a claimed link counts against, and ages visitors' links. */
  clock: Clock;
}

const DEMO_LINK_LIFETIME_MS = DEMO_LINK_LIFETIME_DAYS * 24 * 60 * 60 * 1000;
/** A bound on one query, well above what the default limits let a visitor hold (5 a day, 7 days). */
const MAX_LISTED = 100;

type ClaimOutcome = { claimed: true; position: LogPosition | null } | { claimed: false; planFull: boolean };

/**
 * The landing page's demo shortener. A visitor's links belong to `visitor-{id}`, count against no plan
 * and stop redirecting after 7 days; signing up or in claims them into the account, as far as the plan
 * allows. A signed-in caller (onboarding) gets a real link, counted against the plan.
 */
export class DemoService {
  /** The demo links' streams; a claim waits for the links read model once, after its last link. */
  private readonly links;
  private readonly codes;

  constructor(private readonly deps: DemoServiceDeps) {
    this.links = commandHandler(deps, linkCommands);
    this.codes = shortCodeClaims(deps);
  }

  /** Counts one demo request from the address (429 past the per-minute limit). */
  countRequest(ip: string): Promise<void> {
    return this.deps.throttle.countRequest(ip);
  }

  async shortenAsVisitor(visitorId: string, url: string, ip: string): Promise<DemoLink> {
    const link = await this.deps.throttle.countLink(visitorId, ip, () =>
      this.create(visitorOwnerId(visitorId), url, false),
    );
    return toDemoLink(link);
  }

  async shortenForUser(userId: string, url: string): Promise<DemoLink> {
    return toDemoLink(await this.create(userId, url, true));
  }

  /** The visitor's demo links that still redirect, newest first. */
  async listForVisitor(visitorId: string): Promise<DemoLink[]> {
    const rows = await this.liveVisitorLinks(visitorOwnerId(visitorId), 'desc');
    return rows.map((row) => this.rowToDemoLink(row));
  }

  /** The account's links made through the demo (onboarding, or claimed visitor links), newest first. */
  async listForUser(userId: string): Promise<DemoLink[]> {
    const rows = await liveDemoLinksOf(this.deps.db, userId, { order: 'desc', limit: MAX_LISTED });
    return rows.map((row) => this.rowToDemoLink(row));
  }

  /**
   * Moves the visitor's live demo links into the account, oldest first, each as far as the plan allows:
   * slot on the user's stream, then the link, then its code (so the code stays the account's for good).
   * The first link the plan refuses ends the claim; the rest stay the visitor's. Returns how many moved.
   */
  async claim(visitorId: string, userId: string): Promise<number> {
    const visitor = visitorOwnerId(visitorId);
    let claimed = 0;
    let last: LogPosition | null = null;
    for (const row of await this.liveVisitorLinks(visitor, 'asc')) {
      const outcome = await this.claimOne(row, visitor, userId);
      if (!outcome.claimed && outcome.planFull) break;
      if (outcome.claimed) {
        claimed += 1;
        last = outcome.position ?? last;
      }
    }
    // The next page the user sees is the dashboard: it should list what was just claimed.
    if (last) await this.deps.readModels.waitFor(linksReadModel, last);
    return claimed;
  }

  private async create(ownerId: string, url: string, countAgainstPlan: boolean): Promise<Link> {
    try {
      return await this.deps.links.create(
        ownerId,
        { originalUrl: url, title: null },
        { origin: 'demo', countAgainstPlan },
      );
    } catch (error) {
      throw renameUrlField(error);
    }
  }

  private async claimOne(row: LinkRow, visitor: string, userId: string): Promise<ClaimOutcome> {
    const linkId = row.link_id;
    if (!(await this.takeSlot(userId, linkId))) return { claimed: false, planFull: true };
    let position: LogPosition | null;
    try {
      ({ position } = await this.transferLink(linkId, visitor, userId));
    } catch (error) {
      await this.releaseSlot(userId, linkId);
      // Gone meanwhile (deleted, or claimed by another account): skip it; anything else ends the claim.
      if (error instanceof NotFoundError) return { claimed: false, planFull: false };
      throw error;
    }
    try {
      await this.transferCode(row.code, visitor, userId);
    } catch (error) {
      // Put the link back where it was, so neither the link nor its slot is left half-moved.
      await this.transferLink(linkId, userId, visitor);
      await this.releaseSlot(userId, linkId);
      throw error;
    }
    return { claimed: true, position };
  }

  /** False when the plan has no room (Free holds 5; Pro makes 500 a month): 403 on the user's stream. */
  private async takeSlot(userId: string, linkId: string): Promise<boolean> {
    try {
      await this.deps.accounts.takeLinkSlot(userId, linkId);
      return true;
    } catch (error) {
      if (error instanceof ForbiddenError) return false;
      throw error;
    }
  }

  private transferLink(linkId: string, ownerId: string, newOwnerId: string) {
    return this.links.handle(linkId, { type: 'TransferLink', ownerId, newOwnerId }, { wait: false });
  }

  private async transferCode(code: string, ownerId: string, newOwnerId: string): Promise<void> {
    await this.codes.handle(code, { type: 'TransferCode', ownerId, newOwnerId });
  }

  private async releaseSlot(userId: string, linkId: string): Promise<void> {
    await this.deps.accounts.command(userId, { type: 'ReleaseLinkSlot', linkId, reason: 'abandoned' });
  }

  /** Unexpired, undeleted demo links of a visitor; expired ones are gone for good, never claimed. */
  private liveVisitorLinks(visitor: string, order: 'asc' | 'desc'): Promise<LinkRow[]> {
    return liveDemoLinksOf(this.deps.db, visitor, {
      order,
      limit: MAX_LISTED,
      createdAfter: new Date(this.deps.clock.now().getTime() - DEMO_LINK_LIFETIME_MS),
    });
  }

  private rowToDemoLink(row: LinkRow): DemoLink {
    return { id: row.link_id, shortUrl: this.deps.links.shortUrl(row.code), originalUrl: row.original_url };
  }
}

const toDemoLink = (link: Link): DemoLink => ({
  id: link.id,
  shortUrl: link.shortUrl,
  originalUrl: link.originalUrl,
});

/** The demo's body calls the target `url`: a bad one is reported against that field, not `originalUrl`. */
function renameUrlField(error: unknown): unknown {
  if (!(error instanceof ValidationError) || error.field !== 'originalUrl') return error;
  return new ValidationError(error.message, 'url', error.code);
}
