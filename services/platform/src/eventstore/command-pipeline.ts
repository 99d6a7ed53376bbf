import type { Decider, Stream } from '@sniplink/contracts';
import type { Clock } from '../time/clock';
import {
  type CommandResult,
  type HandleOptions,
  handleCommand,
  KeyedMutex,
  loadState,
  StreamStates,
} from './command-handler';
import type { EventStore } from './port';
import type { ReadModel, ReadModelWaiter } from './read-model-waiter';

type AnyEvent = { type: string; data: unknown };

/** What a feature's commands run on: the store, the service's clock, and the read models to wait for. */
export interface PipelineDeps {
  eventStore: EventStore;
  /** The events' `occurredAt`: the calling service's clock, never a default one it forgot to pass. */
  clock: Clock;
  readModels?: ReadModelWaiter;
}

/** One kind of aggregate: its decider, its streams and the read model its answers are read from. */
export interface PipelineFeature<Command, State, Event extends AnyEvent> {
  decider: Decider<Command, State, Event>;
  stream: Stream;
  /**
   * The read model the user looks at next: a command's answer waits (bounded) until it has passed the
   * appended events. None: the caller waits for nothing, or for several read models itself.
   */
  projection?: ReadModel;
  /**
   * Throws the service's own error when a key names no stream of this kind: a malformed id is a 404 as
   * an unknown one is, before any stream is read.
   */
  guard?: (key: string) => void;
  /** Shared with other handlers when their commands must not interleave (default: one per handler). */
  mutex?: KeyedMutex;
}

/** Who acts and how long the answer may wait, for one command. */
export interface PipelineCall extends Omit<HandleOptions, 'clock'> {
  /** Longer or shorter than the waiter's default wait for the read model. */
  waitMs?: number;
  /** False: do not wait for the read model (the caller waits once, after more commands). */
  wait?: boolean;
}

export interface PipelineResult<State, Event> extends CommandResult<State, Event> {
  /**
   * Whether the read model has passed the appended events: true when nothing was appended or there was
   * nothing to wait for; false when the wait timed out (the events are stored anyway).
   */
  caughtUp: boolean;
}

export interface CommandPipeline<Command, State, Event extends AnyEvent> {
  readonly stream: Stream;
  /** Runs a command on the stream of `key`, one at a time per stream in this process, then waits. */
  handle(key: string, command: Command, call?: PipelineCall): Promise<PipelineResult<State, Event>>;
  /** The state of the stream of `key`, deciding nothing (guarded as a command is). */
  load(key: string): Promise<State>;
}

/**
 * A feature's command pipeline: guard the key, take the stream's turn in this process, stamp the events
 * with the service's clock, decide and append (retrying on a concurrent write), then wait for the read
 * model the answer is read from.
 */
export function commandHandler<Command, State, Event extends AnyEvent>(
  deps: PipelineDeps,
  feature: PipelineFeature<Command, State, Event>,
): CommandPipeline<Command, State, Event> {
  const { decider, stream, projection, guard } = feature;
  const mutex = feature.mutex ?? new KeyedMutex();
  // A user's stream grows by an event per link made: each command reads only what came after its last.
  const states = new StreamStates<unknown>();
  return {
    stream,
    async handle(key, command, call = {}) {
      guard?.(key);
      const { waitMs, wait = true, ...options } = call;
      const streamId = stream.id(key);
      const result = await mutex.run(streamId, () =>
        handleCommand(deps.eventStore, streamId, decider, command, { ...options, clock: deps.clock, states }),
      );
      const caughtUp =
        !wait || !projection || !deps.readModels || result.position === null
          ? true
          : await deps.readModels.waitFor(projection, result.position, waitMs);
      return { ...result, caughtUp };
    },
    async load(key) {
      guard?.(key);
      return loadState(deps.eventStore, stream.id(key), decider, states);
    },
  };
}
