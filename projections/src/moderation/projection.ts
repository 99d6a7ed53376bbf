import { linkEvents, linkStream } from '@sniplink/contracts';
import {
  prohibitedWordEvents,
  prohibitedWordStream,
  protectedBrandEvents,
  protectedBrandStream,
} from '@sniplink/contracts/moderation/events';
import type { ReadModel, RecordedEvent } from '@sniplink/platform';
import type { Transaction } from 'kysely';
import type { Projection } from '../projection';
import type { ReadModelDatabase } from '../read-models';

/**
 * The prohibited words and protected brands as their readers name them: every process's code checker
 * follows this read model alone, so a link created (which the approvals follow) rebuilds no checker.
 */
export const moderationListsReadModel: ReadModel = { name: 'moderation-lists' };
/** The codes in review and the admins' decisions on them. */
export const slugApprovalsReadModel: ReadModel = { name: 'slug-approvals' };

/** The link events that open, decide or withdraw a code's review. */
const LINK_EVENT_TYPES = [
  'LinkCreated',
  'LinkCodeChanged',
  'LinkCodeApproved',
  'LinkCodeRejected',
  'LinkDeleted',
] as const;

type Trx = Transaction<ReadModelDatabase>;

/** The prohibited words and protected brands, one row per listed entry, idempotent by its stream revision. */
export const moderationListsProjection: Projection = {
  name: moderationListsReadModel.name,
  version: 1,
  handles: [...prohibitedWordEvents.types, ...protectedBrandEvents.types],
  tables: ['rm_prohibited_words', 'rm_protected_brands'],
  async apply(trx, events) {
    for (const event of events) {
      if (prohibitedWordEvents.includes(event)) await applyWordEvent(trx, event);
      else await applyBrandEvent(trx, event);
    }
  },
};

/** The slug approvals, opened by a link's code in review, closed by an admin's decision or the owner's change. */
export const slugApprovalsProjection: Projection = {
  name: slugApprovalsReadModel.name,
  version: 1,
  handles: LINK_EVENT_TYPES,
  tables: ['rm_slug_approvals'],
  async apply(trx, events) {
    for (const event of events) await applyLinkEvent(trx, event);
  },
};

async function applyWordEvent(trx: Trx, recorded: RecordedEvent): Promise<void> {
  const wordId = prohibitedWordStream.idOf(recorded);
  const revision = recorded.revision.toString();
  const event = prohibitedWordEvents.narrow(recorded);
  if (event.type === 'ProhibitedWordAdded') {
    const { word, category, severity } = event.data;
    const row = { word, category, severity, is_active: true, created_at: recorded.occurredAt };
    await trx
      .insertInto('rm_prohibited_words')
      .values({ word_id: wordId, ...row, last_revision: revision })
      .onConflict((oc) =>
        oc
          .column('word_id')
          .doUpdateSet({ ...row, last_revision: revision })
          .where('rm_prohibited_words.last_revision', '<', revision),
      )
      .execute();
    return;
  }
  if (event.type === 'ProhibitedWordDeleted') {
    await trx
      .deleteFrom('rm_prohibited_words')
      .where('word_id', '=', wordId)
      .where('last_revision', '<', revision)
      .execute();
    return;
  }
  await trx
    .updateTable('rm_prohibited_words')
    .set({ is_active: event.type === 'ProhibitedWordSwitchedOn', last_revision: revision })
    .where('word_id', '=', wordId)
    .where('last_revision', '<', revision)
    .execute();
}

async function applyBrandEvent(trx: Trx, recorded: RecordedEvent): Promise<void> {
  const brandId = protectedBrandStream.idOf(recorded);
  const revision = recorded.revision.toString();
  const event = protectedBrandEvents.narrow(recorded);
  if (event.type === 'ProtectedBrandAdded') {
    const { brand, category, requiresApproval } = event.data;
    const row = {
      brand,
      category,
      requires_approval: requiresApproval,
      is_active: true,
      created_at: recorded.occurredAt,
    };
    await trx
      .insertInto('rm_protected_brands')
      .values({ brand_id: brandId, ...row, last_revision: revision })
      .onConflict((oc) =>
        oc
          .column('brand_id')
          .doUpdateSet({ ...row, last_revision: revision })
          .where('rm_protected_brands.last_revision', '<', revision),
      )
      .execute();
    return;
  }
  if (event.type === 'ProtectedBrandDeleted') {
    await trx
      .deleteFrom('rm_protected_brands')
      .where('brand_id', '=', brandId)
      .where('last_revision', '<', revision)
      .execute();
    return;
  }
  await trx
    .updateTable('rm_protected_brands')
    .set({ is_active: event.type === 'ProtectedBrandSwitchedOn', last_revision: revision })
    .where('brand_id', '=', brandId)
    .where('last_revision', '<', revision)
    .execute();
}

/**
 * A code in review opens an approval; the admin's decision closes it; the owner moving the link off the
 * code (or deleting the link) withdraws it. Each write only moves an approval forward from pending, and a
 * withdrawal only touches approvals opened by an earlier event of the link, so an event delivered twice
 * changes nothing.
 */
async function applyLinkEvent(trx: Trx, recorded: RecordedEvent): Promise<void> {
  const linkId = linkStream.idOf(recorded);
  const revision = recorded.revision.toString();
  const event = linkEvents.narrow(recorded);
  const at = recorded.occurredAt;
  switch (event.type) {
    case 'LinkCreated':
    case 'LinkCodeChanged': {
      const review = event.data.review;
      await withdrawPending(trx, linkId, revision);
      if (event.type === 'LinkCodeChanged') await recordNewCode(trx, linkId, event.data);
      if (!review) return;
      await trx
        .insertInto('rm_slug_approvals')
        .values({
          approval_id: review.approvalId,
          link_id: linkId,
          link_revision: revision,
          user_id: review.ownerId,
          slug: event.data.code,
          matched_brand: review.brand,
          status: 'pending',
          created_at: at,
        })
        .onConflict((oc) => oc.column('approval_id').doNothing())
        .execute();
      return;
    }
    case 'LinkCodeApproved':
      await decide(trx, event.data.approvalId, {
        status: 'approved',
        notes: event.data.notes,
        decided_at: at,
      });
      return;
    case 'LinkCodeRejected':
      await decide(trx, event.data.approvalId, {
        status: 'rejected',
        reason: event.data.reason,
        decided_at: at,
      });
      return;
    case 'LinkDeleted':
      await withdrawPending(trx, linkId, revision);
      return;
    default:
      return;
  }
}

/** The link moved on from what earlier events of its stream opened: those approvals no longer wait. */
async function withdrawPending(trx: Trx, linkId: string, revision: string): Promise<void> {
  await trx
    .updateTable('rm_slug_approvals')
    .set({ status: 'withdrawn' })
    .where('link_id', '=', linkId)
    .where('status', '=', 'pending')
    .where('link_revision', '<', revision)
    .execute();
}

async function decide(
  trx: Trx,
  approvalId: string,
  decision: { status: 'approved' | 'rejected'; notes?: string | null; reason?: string; decided_at: Date },
): Promise<void> {
  await trx
    .updateTable('rm_slug_approvals')
    .set(decision)
    .where('approval_id', '=', approvalId)
    .where('status', '=', 'pending')
    .execute();
}

/** A rejected code's link moves to a generated code in the same append: the notice names it. */
async function recordNewCode(
  trx: Trx,
  linkId: string,
  change: { code: string; previousCode: string },
): Promise<void> {
  await trx
    .updateTable('rm_slug_approvals')
    .set({ new_code: change.code })
    .where('link_id', '=', linkId)
    .where('status', '=', 'rejected')
    .where('slug', '=', change.previousCode)
    .where('new_code', 'is', null)
    .execute();
}
