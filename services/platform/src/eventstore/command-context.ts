import { AsyncLocalStorage } from 'node:async_hooks';
import { v7 as uuidv7 } from 'uuid';
import type { ActorId } from './port';

/**
 * On whose behalf, and as part of what, commands run: an HTTP request (its signed-in user, or a demo
 * visitor), a command-line tool (`operator`), a sweep (`system`). Set once where that is known; every
 * command handled inside it stamps its events with the actor and the correlation id, however deep in the
 * services it runs, so no service has to pass them along.
 */
export interface CommandContext {
  actorId: ActorId;
  /** Shared by every event of the request or job. */
  readonly correlationId: string;
}

const current = new AsyncLocalStorage<CommandContext>();

/** Runs `work` (and everything it starts) in a command context; a new correlation id unless one is given. */
export function runAs<T>(actorId: ActorId, work: () => T, correlationId: string = uuidv7()): T {
  return current.run({ actorId, correlationId }, work);
}

/** The context commands run in now, if any. */
export function currentCommandContext(): CommandContext | undefined {
  return current.getStore();
}

/**
 * The actor of the running context turned out to be someone known (a request's session was looked up):
 * the commands it handles from now on are theirs. Outside a context, nothing happens.
 */
export function identifyActor(actorId: ActorId): void {
  const context = current.getStore();
  if (context) context.actorId = actorId;
}
