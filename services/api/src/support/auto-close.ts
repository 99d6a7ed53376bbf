import { ticketStream } from '@sniplink/contracts';
import { ticketDecider } from '@sniplink/domain';
import { type Clock, commandHandler, type Database, type EventStore, type Logger } from '@sniplink/platform';
import { ticketsDueToClose } from '@sniplink/projections';
import type { Kysely } from 'kysely';

export interface TicketSweepDeps {
  db: Kysely<Database>;
  eventStore: EventStore;
  log: Logger;
  /** The instant the 7 days are counted to, and the time the closing is stamped with. */
  clock: Clock;
}

/**
 * Closes the tickets resolved 7 days ago or more whose owner did not answer (housekeeping, beside the
 * account sweeps). The read model finds candidates; each ticket's stream decides, so a ticket reopened
 * meanwhile is left alone. Returns how many it closed.
 */
export async function closeResolvedTickets(deps: TicketSweepDeps): Promise<number> {
  const now = deps.clock.now();
  const tickets = commandHandler(deps, { decider: ticketDecider, stream: ticketStream });
  let closed = 0;
  for (const ticketId of await ticketsDueToClose(deps.db, now, 1_000)) {
    const { position } = await tickets.handle(ticketId, { type: 'AutoCloseTicket', now });
    if (position) closed += 1;
  }
  if (closed > 0) deps.log.info({ closed }, 'closed support tickets resolved 7 days ago');
  return closed;
}
