import type { ShortCodeEvent } from '@sniplink/contracts';
import { shortCodeStream } from '@sniplink/contracts';
import {
  type CodeVerdict,
  type ShortCodeCommand,
  type ShortCodeState,
  shortCodeDecider,
  ValidationError,
} from '@sniplink/domain';
import {
  type CommandPipeline,
  commandHandler,
  type PipelineCall,
  type PipelineDeps,
  type PipelineResult,
} from '@sniplink/platform';

/**
 * The port every claim of a code asks first: the admin's prohibited words and protected brands, in
 * memory (`LiveModeration`, kept current on every process), so a check costs microseconds.
 */
export interface CodeModeration {
  check(code: string): CodeVerdict;
}

/** No lists: every code is clear (tools and tests that check no moderation). */
export const noModeration: CodeModeration = { check: () => ({ outcome: 'clear' }) };

/** How a claim may take a code that contains a brand whose owner asks for approval. */
export interface ClaimCall extends PipelineCall {
  /**
   * `hold`: the caller keeps such a code from redirecting until an admin approves it (a user's custom
   * code). Otherwise the code is refused as any protected brand is (generated codes, premium slugs).
   */
  brandInReview?: 'hold';
}

export interface ClaimResult extends PipelineResult<ShortCodeState, ShortCodeEvent> {
  /** The brand a held code waits on an admin's approval for; null when the code is clear. */
  review: { brand: string } | null;
}

/** The short-code namespace with the admin's lists in front of every claim. */
export interface ShortCodeClaims extends CommandPipeline<ShortCodeCommand, ShortCodeState, ShortCodeEvent> {
  handle(key: string, command: ShortCodeCommand, call?: ClaimCall): Promise<ClaimResult>;
}

/** The refusals' words, the same in the error and in the edit dialog's availability check; never the entry itself. */
export const PROHIBITED_CODE_MESSAGE = 'This short code is not allowed';
export const PROTECTED_BRAND_MESSAGE = 'This short code contains a protected brand name';

const prohibitedCodeError = (field: string) =>
  new ValidationError(PROHIBITED_CODE_MESSAGE, field, 'PROHIBITED_CODE');
const protectedBrandError = (field: string) =>
  new ValidationError(PROTECTED_BRAND_MESSAGE, field, 'PROTECTED_BRAND');

/** Whether an error is the lists refusing a code (a generated code then draws another). */
export const isModerationRefusal = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === 'PROHIBITED_CODE' || code === 'PROTECTED_BRAND';
};

/**
 * Every way a code is claimed (a link's custom or generated code, a premium slug, and any later one)
 * goes through here: one stream per code whatever its case, and before a claim or a reservation is
 * decided, the lists. A prohibited word refuses the code (`PROHIBITED_CODE`), a protected brand too
 * (`PROTECTED_BRAND`), unless it asks for approval and the caller holds such codes for review. The lists
 * change nothing already claimed: only claims ask. No read model answers for a claim: it is read back
 * from its stream.
 */
export function shortCodeClaims(deps: PipelineDeps & { moderation: CodeModeration }): ShortCodeClaims {
  const pipeline = commandHandler(deps, { decider: shortCodeDecider, stream: shortCodeStream });
  return {
    stream: pipeline.stream,
    load: (key) => pipeline.load(key),
    async handle(key, command, call = {}) {
      const { brandInReview, ...pipelineCall } = call;
      const review = screen(deps.moderation, command, brandInReview === 'hold');
      return { ...(await pipeline.handle(key, command, pipelineCall)), review };
    },
  };
}

/** The lists' word on a claim or a reservation; other commands (giving a code up) are never screened. */
function screen(moderation: CodeModeration, command: ShortCodeCommand, hold: boolean): ClaimResult['review'] {
  if (command.type !== 'ClaimCode' && command.type !== 'ReserveForPremiumSlug') return null;
  const field = command.type === 'ClaimCode' ? 'shortCode' : 'slug';
  const verdict = moderation.check(command.code);
  switch (verdict.outcome) {
    case 'clear':
      return null;
    case 'prohibited':
      throw prohibitedCodeError(field);
    case 'protected':
      if (!verdict.requiresApproval || !hold || command.type !== 'ClaimCode')
        throw protectedBrandError(field);
      return { brand: verdict.brand };
  }
}
