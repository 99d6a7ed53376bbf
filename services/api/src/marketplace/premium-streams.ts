import {
  type PremiumBuyerEvent,
  type PremiumSlugEvent,
  premiumBuyerStream,
  premiumSlugStream,
} from '@sniplink/contracts';
import {
  type PremiumBuyerCommand,
  type PremiumBuyerState,
  type PremiumSlugCommand,
  type PremiumSlugState,
  premiumBuyerDecider,
  premiumSlugDecider,
} from '@sniplink/domain';
import { type CommandPipeline, commandHandler, type PipelineDeps } from '@sniplink/platform';
import { marketplaceProjection } from '@sniplink/projections';

export type PremiumSlugs = CommandPipeline<PremiumSlugCommand, PremiumSlugState, PremiumSlugEvent>;
export type PremiumBuyers = CommandPipeline<PremiumBuyerCommand, PremiumBuyerState, PremiumBuyerEvent>;

/** A slug's stream: the marketplace read model shows each change from the buyer's or admin's next look. */
export const premiumSlugs = (deps: PipelineDeps): PremiumSlugs =>
  commandHandler(deps, {
    decider: premiumSlugDecider,
    stream: premiumSlugStream,
    projection: marketplaceProjection,
  });

/** A buyer's holds and slugs: no read model shows them, the buyer's stream is asked directly. */
export const premiumBuyers = (deps: PipelineDeps): PremiumBuyers =>
  commandHandler(deps, { decider: premiumBuyerDecider, stream: premiumBuyerStream });
