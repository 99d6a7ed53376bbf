import { linkStream } from '@sniplink/contracts';
import { linkDecider } from '@sniplink/domain';
import { linksReadModel } from '@sniplink/projections';

/** A link's commands: its stream, answered once the links read model (and the redirect caches) show them. */
export const linkCommands = { decider: linkDecider, stream: linkStream, projection: linksReadModel };

/** A short code's claims: `shortCodeClaims` (short-code-claims.ts), where the admin's lists are asked. */
