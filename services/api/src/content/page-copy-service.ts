import type { PageCopy, PageCopyKey, PageCopyVersion, PublicPageCopy } from '@sniplink/contracts/content/api';
import { pageCopyKeys } from '@sniplink/contracts/content/api';
import { pageCopyStream } from '@sniplink/contracts/content/events';
import { pageCopyDecider } from '@sniplink/domain';
import { commandHandler } from '@sniplink/platform';
import { pageCopyProjection } from '@sniplink/projections/content/projection';
import {
  type PageCopyRow,
  type PageCopyVersionRow,
  pageCopies,
  pageCopy,
  pageCopyVersions,
  publishedPageCopy,
} from '@sniplink/projections/content/queries';
import type { ServiceDeps } from '../shared/service-deps';

/** A page's commands: its stream `page-{page}`, answered once the page copy read model has them. */
const pageCopyCommands = { decider: pageCopyDecider, stream: pageCopyStream, projection: pageCopyProjection };

/** A page nothing was saved for yet: an empty draft, never published. */
const blank = (page: PageCopyKey): PageCopy => ({
  page,
  title: '',
  content: '',
  isPublished: false,
  version: 0,
  publishedAt: null,
  updatedAt: null,
});

const toPageCopy = (row: PageCopyRow): PageCopy => ({
  page: row.page as PageCopyKey,
  title: row.title,
  content: row.content,
  isPublished: row.published,
  version: row.version,
  publishedAt: row.publishedAt?.toISOString() ?? null,
  updatedAt: row.updatedAt.toISOString(),
});

const toVersion = (row: PageCopyVersionRow): PageCopyVersion => ({
  version: row.version,
  title: row.title,
  content: row.content,
  publishedAt: row.publishedAt.toISOString(),
});

/**
 * The informational pages' copy: one stream per page (`page-privacy`), whose expected revision keeps two
 * admins' saves and publishes in order; drafts, versions and what the public pages show are read from the
 * page copy read model.
 */
export class PageCopyService {
  private readonly pages;

  constructor(private readonly deps: Omit<ServiceDeps, 'ids'>) {
    this.pages = commandHandler(deps, pageCopyCommands);
  }

  /** Every page, in the order the console lists them, saved or not. */
  async list(): Promise<PageCopy[]> {
    const saved = new Map((await pageCopies(this.deps.db)).map((row) => [row.page, toPageCopy(row)]));
    return pageCopyKeys.map((page) => saved.get(page) ?? blank(page));
  }

  async get(page: PageCopyKey): Promise<PageCopy> {
    const row = await pageCopy(this.deps.db, page);
    return row ? toPageCopy(row) : blank(page);
  }

  async saveDraft(page: PageCopyKey, title: string, content: string): Promise<PageCopy> {
    await this.pages.handle(page, { type: 'SavePageCopyDraft', page, title, content });
    return this.get(page);
  }

  async publish(page: PageCopyKey): Promise<PageCopy> {
    await this.pages.handle(page, { type: 'PublishPageCopy', page });
    return this.get(page);
  }

  async versions(page: PageCopyKey): Promise<PageCopyVersion[]> {
    return (await pageCopyVersions(this.deps.db, page)).map(toVersion);
  }

  async published(page: PageCopyKey): Promise<PublicPageCopy> {
    const row = await publishedPageCopy(this.deps.db, page);
    return { page, published: row ? toVersion(row) : null };
  }
}
