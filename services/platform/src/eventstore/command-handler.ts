import { setTimeout as sleep } from 'node:timers/promises';
import type { Decider } from '@sniplink/contracts';
import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../time/clock';
import { CHANNEL_METADATA_KEY, currentCommandContext, recordAppended } from './command-context';
import type {
  ActorId,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  LogPosition,
  RecordedEvent,
} from './port';
import { WrongExpectedRevisionError } from './port';

export interface CommandResult<State, Event> {
  /** The events this command appended (empty when it changed nothing). */
  events: Event[];
  /** The stream's state after them. */
  state: State;
  /** Where the last appended event sits in the global log; null when nothing was appended. */
  position: LogPosition | null;
}

export class ConcurrencyExhaustedError extends Error {
  constructor(streamId: string, attempts: number) {
    super(`Stream ${streamId} kept changing under ${attempts} attempts`);
    this.name = 'ConcurrencyExhaustedError';
  }
}

/**
 * The states of the streams a handler last worked on, each as of the stream's revision it was folded to,
 * the most recently used kept (a bounded number): the next command on one reads only the events after
 * that revision. A stream only grows, so a state folded to a revision stays that stream's state at that
 * revision; what another process appended since is read as any other new event.
 */
export class StreamStates<State> {
  private readonly entries = new Map<string, { state: State; revision: bigint }>();

  constructor(private readonly capacity = 256) {}

  get(streamId: string): { state: State; revision: bigint } | undefined {
    const entry = this.entries.get(streamId);
    if (entry) {
      this.entries.delete(streamId);
      this.entries.set(streamId, entry);
    }
    return entry;
  }

  set(streamId: string, entry: { state: State; revision: bigint }): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}

export interface HandleOptions {
  /** The events' `occurredAt`: the calling service's clock, never a default one it forgot to pass. */
  clock: Clock;
  /** Who acts; default: the command context's actor (see command-context.ts), else `system`. */
  actorId?: ActorId;
  /** Default: the command context's correlation id, else the command's own id. */
  correlationId?: string;
  /** Default: the command's id (one per command, shared by the events it appends). */
  causationId?: string;
  maxAttempts?: number;
  /** Where the stream's state may be known already, and is kept for the next command. */
  states?: StreamStates<unknown>;
}

/**
 * Serialises work per key inside this process, so a burst on one stream resolves by the rules, not by
 * optimistic-concurrency retries (which remain the guard across processes).
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/**
 * Read the stream, fold its events, decide, append with the revision it was read at. A conflict (another
 * process wrote meanwhile) retries from the read, with jitter, a bounded number of times.
 */
export async function handleCommand<Command, State, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  options: HandleOptions,
): Promise<CommandResult<State, Event>> {
  const maxAttempts = options.maxAttempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await readState(store, streamId, decider, options.states);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    const expected: ExpectedRevision = revision ?? 'no_stream';
    const envelope = envelopeFor(options, options.clock.now());
    try {
      const appended = await store.appendToStream(
        streamId,
        events.map((event) => ({ ...envelope, id: uuidv7(), type: event.type, data: event.data })),
        expected,
      );
      recordAppended(appended.position);
      return { events, state: events.reduce(decider.evolve, state), position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= maxAttempts) throw new ConcurrencyExhaustedError(streamId, attempt);
      await sleep(Math.random() * 10 * attempt);
    }
  }
}

/** Reads a stream's state without deciding anything. */
export async function loadState<State, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, State, Event>, 'events' | 'initialState' | 'evolve'>,
  states?: StreamStates<unknown>,
): Promise<State> {
  return (await readState(store, streamId, decider, states)).state;
}

/**
 * The stream's state and the revision it was folded to (none: no stream): from the state kept in
 * `states`, only the events after its revision are read. The state kept is always one folded from
 * recorded events, never one a decision evolved to, so it is exactly what a fold from the start gives.
 */
async function readState<State, Event extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<unknown, State, Event>, 'events' | 'initialState' | 'evolve'>,
  states: StreamStates<unknown> | undefined,
): Promise<{ state: State; revision: bigint | undefined }> {
  const known = states?.get(streamId) as { state: State; revision: bigint } | undefined;
  const recorded = await store.readStream(streamId, known && { fromRevision: known.revision + 1n });
  const state = fold(decider, recorded, known?.state ?? decider.initialState());
  const revision = recorded.at(-1)?.revision ?? known?.revision;
  if (states && revision !== undefined && recorded.length > 0) states.set(streamId, { state, revision });
  return { state, revision };
}

/** The state after the events (parsed and upcast by the store) folded onto `from` by the decider. */
function fold<State, Event extends { type: string; data: unknown }>(
  decider: Pick<Decider<unknown, State, Event>, 'events' | 'initialState' | 'evolve'>,
  recorded: readonly RecordedEvent[],
  from: State,
): State {
  let state = from;
  for (const event of recorded) {
    if (!decider.events.includes(event)) {
      throw new Error(
        `Stream ${event.streamId} holds a ${event.type} event, which its decider does not know`,
      );
    }
    state = decider.evolve(state, event);
  }
  return state;
}

/**
 * Who and what the command's events record: the actor and correlation id of the command context unless
 * the caller names them, the command's own id as their cause, and the context's channel (admin console,
 * operator) when it has one.
 */
function envelopeFor(options: HandleOptions, occurredAt: Date): Omit<EventToAppend, 'id' | 'type' | 'data'> {
  const context = currentCommandContext();
  const commandId = uuidv7();
  return {
    actorId: options.actorId ?? context?.actorId ?? 'system',
    correlationId: options.correlationId ?? context?.correlationId ?? commandId,
    causationId: options.causationId ?? commandId,
    occurredAt,
    ...(context?.channel && { metadata: { [CHANNEL_METADATA_KEY]: context.channel } }),
  };
}
