import { AsyncLocalStorage } from 'node:async_hooks';
import { v7 as uuidv7 } from 'uuid';
import { type ActorId, comparePositions, type LogPosition, type RecordedEvent } from './port';

/**
 * The ways in that a command can come through besides the web app: the admin console (`/api/admin`), an
 * operator's command-line tool (both privileged), and an API key's call (`api`, a user's own script). A
 * command from anywhere else (a user's own request, a sweep) has none. Every event records the way its
 * command came in (metadata key `channel`), so the audit history can tell an admin's or operator's action
 * from a user's own without knowing any event type.
 */
const commandChannels = ['admin-console', 'operator', 'api'] as const;
export type CommandChannel = (typeof commandChannels)[number];

/** The metadata key that holds an event's channel. */
export const CHANNEL_METADATA_KEY = 'channel';

/**
 * On whose behalf, and as part of what, commands run: an HTTP request (its signed-in user, or a demo
 * visitor), a command-line tool (`operator`), a sweep (`system`). Set once where that is known; every
 * command handled inside it stamps its events with the actor and the correlation id, however deep in the
 * services it runs, so no service has to pass them along.
 */
export interface CommandContext {
  actorId: ActorId;
  /** The privileged way the commands came in, if any. */
  channel?: CommandChannel;
  /** Shared by every event of the request or job. */
  readonly correlationId: string;
  /** Where the latest event appended in this context sits in the log (none appended yet: undefined). */
  lastAppended?: LogPosition;
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

/**
 * The running context turned out to come through a privileged way in (the admin gate let the request
 * through; an operator's tool started): every event appended from now on records it. Outside a context,
 * nothing happens.
 */
export function enterChannel(channel: CommandChannel): void {
  const context = current.getStore();
  if (context) context.channel = channel;
}

/** A command of the running context appended events up to `position` (outside a context, nothing happens). */
export function recordAppended(position: LogPosition): void {
  const context = current.getStore();
  if (context && (!context.lastAppended || comparePositions(position, context.lastAppended) > 0)) {
    context.lastAppended = position;
  }
}

/** The channel an event's command came through, or null (a user's own doing, a sweep, an older event). */
export function channelOf(event: Pick<RecordedEvent, 'metadata'>): CommandChannel | null {
  const channel = event.metadata[CHANNEL_METADATA_KEY];
  return commandChannels.find((known) => known === channel) ?? null;
}
