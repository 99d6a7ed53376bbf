import { linkStream, shortCodeStream } from '@sniplink/contracts';
import { linkDecider, shortCodeDecider } from '@sniplink/domain';
import { linksReadModel } from '@sniplink/projections';

/** A link's commands: its stream, answered once the links read model (and the redirect caches) show them. */
export const linkCommands = { decider: linkDecider, stream: linkStream, projection: linksReadModel };

/**
 * A short code's claim: one stream per code whatever its case. No read model answers for it: a claim is
 * read back from its stream.
 */
export const shortCodeCommands = { decider: shortCodeDecider, stream: shortCodeStream };
