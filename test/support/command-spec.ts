import { type DomainEvent, eventRegistry, type Stream } from '@sniplink/contracts';
import {
  type CommandPipeline,
  commandHandler,
  type FixedClock,
  fixedClock,
  InMemoryEventStore,
  type PipelineFeature,
  type ReadModelWaiter,
} from '@sniplink/platform';
import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { expectFailure, type Outcome } from './decider-spec';

/** Events on one stream: what a specification's history holds, or what it expects appended. */
export interface OnStream {
  stream: Stream;
  key: string;
  events: readonly DomainEvent[];
}

/** `events` on the stream of `key`. */
export const on = (stream: Stream, key: string, ...events: DomainEvent[]): OnStream => ({
  stream,
  key,
  events,
});

/**
 * What a specified feature runs on: the in-memory event store (with every event's schema, as the real
 * stores check them), a clock the specification sets, and read models that are always caught up (the
 * specification is about the streams; no read model runs in memory).
 */
export interface SpecWorld {
  eventStore: InMemoryEventStore;
  clock: FixedClock;
  readModels: ReadModelWaiter;
}

const SPEC_START = '2026-03-01T10:00:00.000Z';

/**
 * given(history).when(act).then(appended) / .thenFails(error, appended): a command, or a service method
 * that runs several, read as a specification. `build` makes the subject (a pipeline, a service) on a
 * fresh world for each run; `then` compares the events `act` appended, stream by stream in log order.
 */
export function commandSpec<Subject>(build: (world: SpecWorld) => Subject) {
  return {
    given: (...history: OnStream[]) => ({
      when: (act: (subject: Subject, world: SpecWorld) => Promise<unknown>) => {
        const run = async () => {
          const world: SpecWorld = {
            eventStore: new InMemoryEventStore(eventRegistry),
            clock: fixedClock(SPEC_START),
            readModels: { waitFor: async () => true },
          };
          await seed(world, history);
          const before = await world.eventStore.headPosition();
          const outcome: Outcome = await act(build(world), world).then(
            () => ({ failed: false }),
            (error: unknown) => ({ failed: true, error }),
          );
          const { events } = await world.eventStore.readAll({ after: before, maxCount: 10_000 });
          const appended = events.map(({ streamId, type, data }) => ({ streamId, type, data }));
          return { outcome, appended };
        };
        return {
          // biome-ignore lint/suspicious/noThenProperty: given/when/then reads as the specification; never awaited as a promise itself.
          then: async (...expected: OnStream[]) => {
            const { outcome, appended } = await run();
            if (outcome.failed) throw outcome.error;
            expect(appended).toEqual(flatten(expected));
          },
          /** The act throws an error matching `error`; `appended`: what it wrote before (a compensation). */
          thenFails: async (error: Record<string, unknown>, ...expected: OnStream[]) => {
            const { outcome, appended } = await run();
            expectFailure(outcome, error);
            expect(appended).toEqual(flatten(expected));
          },
        };
      },
    }),
  };
}

/** The specification of one feature's pipeline: its stream's history, one command, the events it appends. */
export function handlerSpec<Command, State, Event extends DomainEvent>(
  feature: PipelineFeature<Command, State, Event>,
) {
  const spec = commandSpec((world) => commandHandler(world, feature));
  return {
    given: (key: string, ...history: Event[]) => {
      const given = spec.given(on(feature.stream, key, ...history));
      return {
        when: (command: Command) => {
          const when = given.when((pipeline: CommandPipeline<Command, State, Event>) =>
            pipeline.handle(key, command),
          );
          return {
            // biome-ignore lint/suspicious/noThenProperty: given/when/then reads as the specification; never awaited as a promise itself.
            then: (...expected: Event[]) => when.then(on(feature.stream, key, ...expected)),
            thenFails: (error: Record<string, unknown>) => when.thenFails(error),
          };
        },
      };
    },
  };
}

async function seed(world: SpecWorld, history: readonly OnStream[]): Promise<void> {
  for (const { stream, key, events } of history) {
    if (events.length === 0) continue;
    await world.eventStore.appendToStream(
      stream.id(key),
      events.map((event) => ({
        id: uuidv7(),
        type: event.type,
        data: event.data,
        actorId: 'system',
        correlationId: 'spec-history',
        causationId: 'spec-history',
        occurredAt: world.clock.now(),
      })),
      'any',
    );
  }
}

function flatten(expected: readonly OnStream[]) {
  return expected.flatMap(({ stream, key, events }) =>
    events.map(({ type, data }) => ({ streamId: stream.id(key), type, data })),
  );
}
