import {
  type AddProhibitedWordBody,
  type AddProtectedBrandBody,
  type ApprovalStatus,
  addProhibitedWordBody,
  addProtectedBrandBody,
  type CodeRejectionNotice,
  type ProhibitedWord,
  type ProtectedBrand,
  type SlugApproval,
} from '@sniplink/contracts/moderation/api';
import { prohibitedWordStream, protectedBrandStream } from '@sniplink/contracts/moderation/events';
import {
  NotFoundError,
  normaliseEntry,
  prohibitedWordDecider,
  protectedBrandDecider,
} from '@sniplink/domain';
import { commandHandler, currentCommandContext, type Logger, type Mailer } from '@sniplink/platform';
import {
  moderationListsReadModel,
  slugApprovalsReadModel,
} from '@sniplink/projections/moderation/projection';
import {
  codeRejectionsOf,
  prohibitedWordById,
  prohibitedWords,
  protectedBrandById,
  protectedBrands,
  slugApprovalById,
  slugApprovals,
} from '@sniplink/projections/moderation/queries';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import type { AccountService } from '../accounts/accounts';
import type { LinkService } from '../links/link-service';
import type { ServiceDeps } from '../shared/service-deps';
import type { LiveModeration } from './live-moderation';
import { codeRejectedMail } from './mail';

export interface ModerationServiceDeps extends Omit<ServiceDeps, 'ids'> {
  links: Pick<LinkService, 'approveCode' | 'rejectCode'>;
  accounts: Pick<AccountService, 'user'>;
  /** This process's checker: compiled again before a list change answers. */
  lists: Pick<LiveModeration, 'refresh'>;
  mailer: Mailer;
  publicUrl: string;
  log: Logger;
}

/** Ids of list entries are derived from the entry as codes compare it: the same word is one stream. */
const ENTRY_NAMESPACE = '6f1d3c2e-8a4b-4f0e-9d7c-5b2a1e0f3c4d';
const entryId = (kind: 'word' | 'brand', text: string) =>
  uuidv5(`${kind}:${normaliseEntry(text)}`, ENTRY_NAMESPACE);
const isId = (id: string) => z.uuid().safeParse(id).success;
const noWord = () => new NotFoundError('No such prohibited word');
const noBrand = () => new NotFoundError('No such protected brand');
const noApproval = () => new NotFoundError('No such slug approval');
/** How long a rejection stays on the owner's dashboard. */
const NOTICE_DAYS = 30;

/**
 * The admin's lists (each entry its own stream, named after the entry, so a duplicate is refused by the
 * stream's revision) and the slug approvals: approving lets a code in review redirect; rejecting gives
 * the link a generated code, frees the refused one and tells its owner (a dashboard notice and a mail).
 * The acting admin is every event's actor (the console's command context).
 */
export class ModerationService {
  private readonly words;
  private readonly brands;

  constructor(private readonly deps: ModerationServiceDeps) {
    const guard = (notFound: () => Error) => (id: string) => {
      if (!isId(id)) throw notFound();
    };
    this.words = commandHandler(deps, {
      decider: prohibitedWordDecider,
      stream: prohibitedWordStream,
      projection: moderationListsReadModel,
      guard: guard(noWord),
    });
    this.brands = commandHandler(deps, {
      decider: protectedBrandDecider,
      stream: protectedBrandStream,
      projection: moderationListsReadModel,
      guard: guard(noBrand),
    });
  }

  listWords(): Promise<ProhibitedWord[]> {
    return prohibitedWords(this.deps.db);
  }

  async addWord(body: AddProhibitedWordBody): Promise<ProhibitedWord> {
    const { word, category, severity } = addProhibitedWordBody.parse(body);
    const wordId = entryId('word', word);
    await this.words.handle(wordId, { type: 'AddWord', wordId, word, category, severity });
    return this.afterWordChange(wordId);
  }

  async setWordActive(wordId: string, isActive: boolean): Promise<ProhibitedWord> {
    await this.words.handle(wordId, { type: 'SetWordActive', wordId, isActive });
    return this.afterWordChange(wordId);
  }

  async deleteWord(wordId: string): Promise<void> {
    await this.words.handle(wordId, { type: 'DeleteWord', wordId });
    await this.deps.lists.refresh();
  }

  listBrands(): Promise<ProtectedBrand[]> {
    return protectedBrands(this.deps.db);
  }

  async addBrand(body: AddProtectedBrandBody): Promise<ProtectedBrand> {
    const { brand, category, requiresApproval } = addProtectedBrandBody.parse(body);
    const brandId = entryId('brand', brand);
    await this.brands.handle(brandId, { type: 'AddBrand', brandId, brand, category, requiresApproval });
    return this.afterBrandChange(brandId);
  }

  async setBrandActive(brandId: string, isActive: boolean): Promise<ProtectedBrand> {
    await this.brands.handle(brandId, { type: 'SetBrandActive', brandId, isActive });
    return this.afterBrandChange(brandId);
  }

  async deleteBrand(brandId: string): Promise<void> {
    await this.brands.handle(brandId, { type: 'DeleteBrand', brandId });
    await this.deps.lists.refresh();
  }

  approvals(status: ApprovalStatus): Promise<SlugApproval[]> {
    return slugApprovals(this.deps.db, status);
  }

  /** Lets the code redirect; an approval decided already, or withdrawn by its owner, is a 409. */
  async approve(approvalId: string, notes: string | null): Promise<SlugApproval> {
    const approval = await this.pendingApproval(approvalId);
    await this.deps.links.approveCode(approval.linkId, approvalId, notes);
    return this.afterDecision(approvalId);
  }

  /** Gives the link a generated code, frees the refused one, and tells the owner why. */
  async reject(approvalId: string, reason: string): Promise<SlugApproval> {
    const approval = await this.pendingApproval(approvalId);
    const newCode = await this.deps.links.rejectCode(approval.linkId, approvalId, reason);
    this.mailOwner(approval.userId, approval.slug, newCode, reason);
    return this.afterDecision(approvalId);
  }

  /** The user's codes rejected in the last 30 days, for the dashboard's notice. */
  noticesFor(userId: string): Promise<CodeRejectionNotice[]> {
    const since = new Date(this.deps.clock.now().getTime() - NOTICE_DAYS * 86_400_000);
    return codeRejectionsOf(this.deps.db, userId, since);
  }

  private async pendingApproval(approvalId: string) {
    if (!isId(approvalId)) throw noApproval();
    const approval = await slugApprovalById(this.deps.db, approvalId);
    if (!approval) throw noApproval();
    return approval;
  }

  /** The approval once its read model has the decision just appended (bounded, as every command's wait). */
  private async afterDecision(approvalId: string): Promise<SlugApproval> {
    const appended = currentCommandContext()?.lastAppended;
    if (appended) await this.deps.readModels.waitFor(slugApprovalsReadModel, appended);
    const approval = await slugApprovalById(this.deps.db, approvalId);
    if (!approval) throw noApproval();
    const { linkId: _linkId, ...shown } = approval;
    return shown;
  }

  private mailOwner(userId: string, code: string, newCode: string, reason: string): void {
    void (async () => {
      const to = (await this.deps.accounts.user(userId))?.email;
      if (!to) return;
      const { publicUrl } = this.deps;
      await this.deps.mailer.send(codeRejectedMail({ to, code, newCode, reason, publicUrl }));
    })().catch((err: unknown) =>
      this.deps.log.error({ err }, 'moderation: the mail about a rejected code could not be sent'),
    );
  }

  private async afterWordChange(wordId: string): Promise<ProhibitedWord> {
    await this.deps.lists.refresh();
    const word = await prohibitedWordById(this.deps.db, wordId);
    if (!word) throw noWord();
    return word;
  }

  private async afterBrandChange(brandId: string): Promise<ProtectedBrand> {
    await this.deps.lists.refresh();
    const brand = await protectedBrandById(this.deps.db, brandId);
    if (!brand) throw noBrand();
    return brand;
  }
}
