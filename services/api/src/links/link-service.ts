import { randomBytes } from 'node:crypto';
import type {
  Availability,
  CreateLinkBody,
  Link,
  LinkEvent,
  LinkHistoryEntry,
  LinkTagCount,
  UpdateLinkBody,
} from '@sniplink/contracts';
import {
  assertCustomCode,
  type CodeReview,
  ConflictError,
  checkTargetUrl,
  customCodeProblem,
  fitsEveryonesCodeRule,
  generateCode,
  isCodeFreeFor,
  isPremiumCode,
  type LinkClicks,
  type LinkCommand,
  type LinkState,
  NotFoundError,
  ValidationError,
} from '@sniplink/domain';
import {
  type CommandPipeline,
  commandHandler,
  KeyedMutex,
  type LogPosition,
  type PipelineResult,
} from '@sniplink/platform';
import {
  type LinkRow,
  linksReadModel,
  liveLinkCount,
  liveLinksOf,
  ownedLiveLink,
  ownedPremiumSlugs,
  tagCountsOf,
} from '@sniplink/projections';
import type { AccountService } from '../accounts/accounts';
import type { ServiceDeps } from '../shared/service-deps';
import { fixedSettings, type Settings } from '../shared/settings';
import type { CodeChangeThrottle } from './code-change-throttle';
import {
  type ControlFields,
  clicksUsed,
  controlsJson,
  forgetControls,
  LinkControlRules,
} from './link-controls';
import { linkHistory } from './link-history';
import { linkCommands } from './link-streams';
import {
  type ClaimCall,
  type CodeModeration,
  isModerationRefusal,
  PROHIBITED_CODE_MESSAGE,
  PROTECTED_BRAND_MESSAGE,
  type ShortCodeClaims,
  shortCodeClaims,
} from './short-code-claims';

export interface LinkServiceDeps extends ServiceDeps {
  accounts: Pick<AccountService, 'command' | 'takeLinkSlot' | 'user'>;
  /** The admin's settings: which link controls are kept for Pro (default: none). */
  settings?: Settings;
  /** `{PUBLIC_URL}`: short URLs are `{publicUrl}/s/{code}`. */
  publicUrl: string;
  /** This site's origins: a target that is a short link of this site would loop. */
  ownOrigins: readonly string[];
  /** Human clicks per link, from the analytics read model. */
  clickCounts(linkIds: string[]): Promise<Map<string, number>>;
  /** Whether a link was ever clicked (humans or bots), for a code it gives up (see `LinkClicks`). */
  linkClicks(linkId: string): Promise<LinkClicks>;
  /** CODE_CHANGES_PER_DAY. */
  codeChanges: Pick<CodeChangeThrottle, 'count'>;
  /** The admin's prohibited words and protected brands, asked by every claim of a code. */
  moderation: CodeModeration;
  randomBytes?: (count: number) => Uint8Array;
}

export interface ListOptions {
  search?: string;
  /** Only links carrying this tag (compared lower-cased). */
  tag?: string;
  limit?: number;
  offset?: number;
}

type LinkChange = Extract<LinkCommand, { type: 'ChangeLink' }>;

/** What the edit dialog says of a free code that contains a brand whose owner asks for approval. */
const CODE_IN_REVIEW_MESSAGE =
  'This short code is available, but it contains a protected brand name: it redirects once an admin approves it';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GENERATED_CODE_ATTEMPTS = 5;

/**
 * Links: create (claim a code, count the link against the plan, record it), change, delete, duplicate,
 * list. Each step is one stream's optimistic append; a later step's failure undoes the earlier ones.
 */
export class LinkService {
  private readonly random: (count: number) => Uint8Array;
  /**
   * One link's edits and deletion, one at a time in this process: a burst on one link then resolves in
   * order instead of by optimistic-concurrency retries, which stay the guard across processes.
   */
  private readonly perLink = new KeyedMutex();
  private readonly links: CommandPipeline<LinkCommand, LinkState, LinkEvent>;
  private readonly codes: ShortCodeClaims;
  private readonly controls: LinkControlRules;

  constructor(private readonly deps: LinkServiceDeps) {
    this.random = deps.randomBytes ?? randomBytes;
    const settings = deps.settings ?? fixedSettings();
    this.controls = new LinkControlRules({
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      settings: () => settings.current(),
      isPro: async (userId) => (await deps.accounts.user(userId))?.subscriptionStatus === 'active',
      ownOrigins: deps.ownOrigins,
    });
    this.links = commandHandler(deps, linkCommands);
    this.codes = shortCodeClaims(deps);
  }

  async create(
    ownerId: string,
    body: CreateLinkBody,
    options: { origin?: 'dashboard' | 'duplicate' | 'demo'; countAgainstPlan?: boolean } = {},
  ): Promise<Link> {
    const linkId = this.deps.ids.newId();
    await this.record(ownerId, linkId, body, { ...options, wait: true });
    return this.get(ownerId, linkId);
  }

  /**
   * Creates a link under an id the caller chose, without waiting for the read models: an import names each
   * row's link, so a job resumed after a crash finds the links it made (`exists`) and makes none twice.
   * Answers the link's code. The rules are those of `create`: the code namespace, the lists, the plan.
   */
  async createImported(
    ownerId: string,
    linkId: string,
    body: CreateLinkBody,
    options: { countAgainstPlan: boolean },
  ): Promise<string> {
    return this.record(ownerId, linkId, body, { ...options, wait: false });
  }

  /** Whether a link was ever created under this id (deleted or not). */
  async exists(linkId: string): Promise<boolean> {
    return (await this.links.load(linkId)).status !== 'none';
  }

  private async record(
    ownerId: string,
    linkId: string,
    body: CreateLinkBody,
    options: { origin?: 'dashboard' | 'duplicate' | 'demo'; countAgainstPlan?: boolean; wait: boolean },
  ): Promise<string> {
    const originalUrl = checkTargetUrl(body.originalUrl, this.deps.ownOrigins);
    const title = cleanTitle(body.title) ?? null;
    const custom = body.shortCode?.trim() || undefined;
    if (custom !== undefined) assertCustomCode(custom, await this.codeRuleFor(ownerId, custom));
    const controls = await this.controls.changeOf(ownerId, linkId, controlFields(body));
    const { code, review } = await this.claimCode(custom, ownerId, linkId);
    const countAgainstPlan = options.countAgainstPlan ?? true;
    try {
      if (countAgainstPlan) {
        await this.deps.accounts.takeLinkSlot(ownerId, linkId);
      }
    } catch (error) {
      await this.releaseCode(code, linkId);
      throw error;
    }
    try {
      await this.links.handle(
        linkId,
        {
          type: 'CreateLink',
          linkId,
          ownerId,
          code,
          originalUrl,
          title,
          origin: options.origin ?? 'dashboard',
          controls,
          ...(review && { review }),
        },
        { wait: options.wait },
      );
    } catch (error) {
      if (countAgainstPlan)
        await this.deps.accounts.command(ownerId, { type: 'ReleaseLinkSlot', linkId, reason: 'abandoned' });
      await this.releaseCode(code, linkId);
      throw error;
    }
    return code;
  }

  /**
   * Changes title, target and code; an absent field is unchanged. All in one append; a new code is
   * claimed first (counted against CODE_CHANGES_PER_DAY) and the old one given up last.
   */
  update(ownerId: string, linkId: string, body: UpdateLinkBody): Promise<Link> {
    return this.perLink.run(linkId.toLowerCase(), async () => {
      const current = await this.ownLink(ownerId, linkId);
      const originalUrl =
        body.originalUrl === undefined ? undefined : checkTargetUrl(body.originalUrl, this.deps.ownOrigins);
      const title = cleanTitle(body.title);
      const newCode = body.shortCode?.trim();
      const codeChanges = newCode !== undefined && newCode !== current.code;
      if (codeChanges) assertCustomCode(newCode, await this.codeRuleFor(ownerId, newCode));
      const code = codeChanges ? newCode : undefined;
      const controls = await this.controls.changeOf(ownerId, current.link_id, controlFields(body));
      const change: LinkChange = { type: 'ChangeLink', ownerId, title, originalUrl, code, controls };
      // A change of case only stays on the same code stream: nothing to claim, nothing to give up.
      if (codeChanges && newCode.toLowerCase() !== current.code.toLowerCase()) {
        await this.deps.codeChanges.count(ownerId, () => this.moveToCode(newCode, current.link_id, change));
      } else {
        await this.links.handle(current.link_id, change);
      }
      return this.get(ownerId, current.link_id);
    });
  }

  remove(ownerId: string, linkId: string): Promise<void> {
    return this.perLink.run(linkId.toLowerCase(), async () => {
      const current = await this.ownLink(ownerId, linkId);
      // The links read model is waited for once the plan has the slot back, before the code is given up.
      const deleted = await this.links.handle(
        current.link_id,
        { type: 'DeleteLink', ownerId },
        { wait: false },
      );
      if (!ownerId.startsWith('visitor-')) {
        await this.deps.accounts.command(ownerId, {
          type: 'ReleaseLinkSlot',
          linkId: current.link_id,
          reason: 'deleted',
        });
      }
      await this.giveUpCode(deleted.state.code ?? current.code, current.link_id, deleted.position);
      await forgetControls(this.deps.db, current.link_id);
    });
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

  /** An admin lets the code in review redirect: every redirect cache drops it once the links read model has it. */
  async approveCode(linkId: string, approvalId: string, notes: string | null): Promise<void> {
    await this.perLink.run(linkId.toLowerCase(), () =>
      this.links.handle(linkId, { type: 'ApproveCode', approvalId, notes }),
    );
  }

  /**
   * An admin refuses the code in review: the link gets a generated code (claimed first), and the refused
   * code is given up as never followed (it redirected nowhere while in review), so anyone may take it.
   * Answers the link's new code.
   */
  rejectCode(linkId: string, approvalId: string, reason: string): Promise<string> {
    return this.perLink.run(linkId.toLowerCase(), async () => {
      const link = await this.links.load(linkId);
      if (link.status !== 'active' || link.review?.approvalId !== approvalId || !link.ownerId || !link.code)
        throw new ConflictError('CONFLICT', 'This short code is no longer waiting for approval');
      const { code: newCode } = await this.claimCode(undefined, link.ownerId, linkId);
      let rejected: PipelineResult<LinkState, LinkEvent>;
      try {
        rejected = await this.links.handle(
          linkId,
          { type: 'RejectCode', approvalId, reason, newCode },
          { wait: false },
        );
      } catch (error) {
        await this.releaseCode(newCode, linkId);
        throw error;
      }
      await this.giveUpCode(link.code, linkId, rejected.position, 'none');
      return newCode;
    });
  }

  async get(ownerId: string, linkId: string): Promise<Link> {
    const [link] = await this.toJson([await this.ownLink(ownerId, linkId)]);
    if (!link) throw new NotFoundError('Link not found');
    return link;
  }

  /** The owner's links, newest first; `search` matches title, target or code, ignoring case. */
  async list(ownerId: string, options: ListOptions = {}): Promise<Link[]> {
    const rows = await liveLinksOf(this.deps.db, ownerId, {
      search: options.search,
      tag: options.tag?.trim().toLowerCase() || undefined,
      limit: Math.min(options.limit ?? 1_000, 1_000),
      offset: options.offset ?? 0,
    });
    return this.toJson(rows);
  }

  /** The changes of the caller's live link, newest first; another's (or a deleted one) is a 404. */
  async history(ownerId: string, linkId: string): Promise<LinkHistoryEntry[]> {
    const link = await this.ownLink(ownerId, linkId);
    return linkHistory(this.deps.eventStore, link.link_id);
  }

  countOwned(ownerId: string): Promise<number> {
    return liveLinkCount(this.deps.db, ownerId);
  }

  /** Whether the caller may put a link on this code now, with a message for the edit dialog. */
  async availability(ownerId: string, code: string): Promise<Availability> {
    const problem = customCodeProblem(code, await this.codeRuleFor(ownerId, code));
    if (problem) return { available: false, message: problem };
    const listed = this.deps.moderation.check(code);
    if (listed.outcome === 'prohibited') return { available: false, message: PROHIBITED_CODE_MESSAGE };
    if (listed.outcome === 'protected' && !listed.requiresApproval)
      return { available: false, message: PROTECTED_BRAND_MESSAGE };
    const state = await this.codes.load(code);
    if (isPremiumCode(state)) return { available: false, message: 'This short code is reserved' };
    if (!isCodeFreeFor(state, ownerId))
      return { available: false, message: 'This short code is already taken' };
    return listed.outcome === 'protected'
      ? { available: true, message: CODE_IN_REVIEW_MESSAGE }
      : { available: true, message: 'This short code is available' };
  }

  /**
   * Which rule a code is held to: an owner of a premium slug may use 1-20 characters, everyone else 3-20.
   * Ownership is looked up only for a code outside everyone's rule (its message names the owner's rule).
   */
  private async codeRuleFor(ownerId: string, code: string): Promise<{ premiumOwner: boolean }> {
    if (fitsEveryonesCodeRule(code)) return { premiumOwner: false };
    return { premiumOwner: (await ownedPremiumSlugs(this.deps.db, ownerId)).length > 0 };
  }

  shortUrl(code: string): string {
    return `${this.deps.publicUrl}/s/${code}`;
  }

  /** Each tag on the owner's live links with how many carry it, the most used first. */
  tags(ownerId: string): Promise<LinkTagCount[]> {
    return tagCountsOf(this.deps.db, ownerId);
  }

  async toJson(rows: LinkRow[]): Promise<Link[]> {
    const [clicks, used] = await Promise.all([
      this.deps.clickCounts(rows.map((row) => row.link_id)),
      clicksUsed(this.deps.db, rows),
    ]);
    const now = this.deps.clock.now();
    return rows.map((row) => ({
      id: row.link_id,
      title: row.title,
      originalUrl: row.original_url,
      shortCode: row.code,
      shortUrl: this.shortUrl(row.code),
      clickCount: clicks.get(row.link_id) ?? 0,
      createdAt: row.created_at.toISOString(),
      ...controlsJson(row, used.get(row.link_id) ?? 0, now),
      pendingApproval: row.pending_approval,
    }));
  }

  /** The link if it is the caller's and live; anything else (malformed id, another's, deleted) is 404. */
  async ownLink(ownerId: string, linkId: string): Promise<LinkRow> {
    if (!UUID.test(linkId)) throw new NotFoundError('Link not found');
    const row = await ownedLiveLink(this.deps.db, ownerId, linkId);
    if (!row) throw new NotFoundError('Link not found');
    return row;
  }

  /**
   * Claims the custom code, or a fresh generated one (a collision, or a code the admin's lists refuse,
   * just draws another). A custom code that contains a brand whose owner asks for approval is taken and
   * held for review: the answer names the approval it waits for.
   */
  private async claimCode(
    custom: string | undefined,
    ownerId: string,
    linkId: string,
  ): Promise<{ code: string; review: CodeReview | null }> {
    for (let attempt = 1; ; attempt++) {
      const code = custom ?? generateCode(this.random);
      const call: ClaimCall = custom === undefined ? {} : { brandInReview: 'hold' };
      try {
        const claimed = await this.codes.handle(code, { type: 'ClaimCode', code, ownerId, linkId }, call);
        const review = claimed.review && {
          approvalId: this.deps.ids.newId(),
          brand: claimed.review.brand,
          ownerId,
        };
        return { code, review };
      } catch (error) {
        const drawAgain =
          custom === undefined &&
          ((error as { code?: string }).code === 'SHORT_CODE_TAKEN' || isModerationRefusal(error));
        if (!drawAgain || attempt >= GENERATED_CODE_ATTEMPTS) throw error;
      }
    }
  }

  private async releaseCode(code: string, linkId: string): Promise<void> {
    await this.codes.handle(code, { type: 'ReleaseCode', linkId });
  }

  /**
   * Claims the new code, records the edit, then gives up the code the link had (the one its event names:
   * a link edited from another process meanwhile gives up the code it really moved off).
   */
  private async moveToCode(code: string, linkId: string, change: LinkChange): Promise<void> {
    const { review } = await this.claimCode(code, change.ownerId, linkId);
    let changed: PipelineResult<LinkState, LinkEvent>;
    try {
      // Waited for below: before the old code is given up, or at once when there is none to give up.
      changed = await this.links.handle(linkId, { ...change, ...(review && { review }) }, { wait: false });
    } catch (error) {
      await this.releaseCode(code, linkId);
      throw error;
    }
    const moved = changed.events.find((event) => event.type === 'LinkCodeChanged');
    if (moved && moved.data.previousCode.toLowerCase() !== code.toLowerCase()) {
      await this.giveUpCode(moved.data.previousCode, linkId, changed.position);
    } else {
      await this.waitForLinks(changed.position);
    }
  }

  /**
   * The link moved off `code`: once the links read model shows it (the redirect caches have dropped the
   * code), the code is freed if the link was never clicked, else kept for its owner. A read model that
   * has not caught up, or click counts that cannot be read, keep it: when in doubt, kept.
   */
  private async giveUpCode(
    code: string,
    linkId: string,
    position: LogPosition | null,
    known?: LinkClicks,
  ): Promise<void> {
    const caughtUp = position === null || (await this.deps.readModels.waitFor(linksReadModel, position));
    const clicks: LinkClicks =
      known ??
      (caughtUp ? await this.deps.linkClicks(linkId).catch(() => 'unconfirmed' as const) : 'unconfirmed');
    await this.codes.handle(code, { type: 'GiveUpCode', linkId, clicks });
  }

  private async waitForLinks(position: LogPosition | null): Promise<void> {
    if (position) await this.deps.readModels.waitFor(linksReadModel, position);
  }
}

/** The control fields of a create or edit body, without the link's own fields. */
function controlFields(body: ControlFields): ControlFields {
  const { password, expiresAt, maxClicks, fallbackUrl, paused, tags, rules } = body;
  return { password, expiresAt, maxClicks, fallbackUrl, paused, tags, rules };
}

/** A title of only spaces is no title. Undefined stays undefined (unchanged). */
function cleanTitle(title: string | null | undefined): string | null | undefined {
  if (title === undefined) return undefined;
  const trimmed = title?.trim() ?? '';
  if (trimmed.length > 200) throw new ValidationError('title must be at most 200 characters', 'title');
  return trimmed === '' ? null : trimmed;
}
