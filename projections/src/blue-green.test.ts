import { type LogPosition, PgAdvisoryLocks, START } from '@sniplink/platform';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { until } from '@sniplink/test-support/until';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RebuildRunningError, rebuildBlueGreen } from './blue-green';
import { linksProjection } from './links/projection';
import { projectionHealth } from './operations';
import { withReadModels } from './read-models';
import { rebuildProjections } from './rebuild';
import { ProjectionRunner, type RunnerDeps } from './runner';

const linkCreated = (n: number) => {
  const linkId = uuidv7();
  return {
    streamId: `link-${linkId}`,
    event: {
      id: uuidv7(),
      type: 'LinkCreated',
      data: {
        linkId,
        ownerId: 'owner-1',
        code: `c${n}`,
        originalUrl: `https://example.com/${n}`,
        title: null,
        origin: 'dashboard',
      },
      occurredAt: new Date(),
    },
  };
};

describe('blue/green rebuild of the links read model', () => {
  let stack: TestStack;
  let deps: RunnerDeps;
  const announced: string[] = [];
  const projection = linksProjection(async (codes) => {
    announced.push(...codes);
  });
  let runner: ProjectionRunner;
  let next = 0;
  const append = async (count: number) => {
    let position: LogPosition = START;
    for (let i = 0; i < count; i++) {
      const { streamId, event } = linkCreated(next++);
      ({ position } = await stack.eventStore.appendToStream(streamId, [event], 'no_stream'));
    }
    return position;
  };
  const links = () => withReadModels(stack.database.db).selectFrom('rm_links');
  const count = async () =>
    Number(
      (
        await links()
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const rows = () =>
    links().select(['link_id', 'code', 'original_url', 'last_revision']).orderBy('link_id').execute();

  beforeAll(async () => {
    stack = await createTestStack();
    deps = {
      db: stack.database.db,
      eventStore: stack.eventStore,
      locks: new PgAdvisoryLocks({ pool: stack.database.pool }),
      log: stack.log,
    };
    runner = new ProjectionRunner(deps, projection, { idlePollMs: 20 });
    runner.start();
    const position = await append(400);
    expect(await runner.waitUntilPast(position, 20_000)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await runner.stop();
    await stack.cleanup();
  });

  it('keeps answering complete reads and taking writes while it rebuilds, then equals a fresh rebuild', async () => {
    const before = await count();
    let rebuilding = true;
    const seen: number[] = [];
    const reader = (async () => {
      while (rebuilding) seen.push(await count());
    })();
    const writer = (async () => {
      while (rebuilding) await append(5);
    })();
    const progress: number[] = [];
    let refused: unknown;
    const outcome = await Promise.all([
      rebuildBlueGreen(deps, projection, {
        batchSize: 10,
        onProgress: (p) => progress.push(p.eventsPerSecond),
      }),
      // A second rebuild of the same projection, meanwhile, is refused.
      rebuildBlueGreen(deps, projection).catch((error: unknown) => {
        refused = error;
      }),
    ]).finally(() => {
      rebuilding = false;
    });
    await Promise.all([reader, writer]);
    expect(refused).toBeInstanceOf(RebuildRunningError);
    expect(outcome[0].events).toBeGreaterThanOrEqual(400);
    expect(outcome[0].swapMs).toBeLessThan(1_000);
    expect(progress.length).toBeGreaterThan(0);
    // Every answer the reader had was a complete read model: never fewer links than before, never fewer than a moment ago.
    expect(seen.length).toBeGreaterThan(10);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(before);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1] ?? 0);

    // The writes made during the rebuild are in it; the runner goes on from the swapped-in copy.
    const last = await append(3);
    expect(await runner.waitUntilPast(last, 20_000)).toBe(true);
    expect(await count()).toBe(next);
    // Each code created was announced to the redirect caches once: none dropped, none twice by the swap.
    await until(
      async () => announced.length,
      (n) => n >= next,
      10_000,
    );
    expect(new Set(announced).size).toBe(next);
    expect(announced.length).toBe(next);

    const blueGreen = await rows();
    await runner.stop();
    await rebuildProjections(deps, [projection]);
    expect(await rows()).toEqual(blueGreen);
    runner.start();
  }, 120_000);

  it('reports each projection’s position, lag, holder and state', async () => {
    // The runner started again at the end of the test before: it holds the projection once its lock is
    // taken, and names itself a moment later.
    const [health] = await until(
      () => projectionHealth(deps, [projection]),
      ([read]) => /pid \d+$/.test(read?.holder ?? ''),
      10_000,
    );
    expect(health).toMatchObject({
      name: 'links',
      version: 1,
      lagEvents: 0,
      lagSeconds: 0,
      state: 'running',
    });
    expect(health?.holder).toMatch(/pid \d+$/);
    expect(health?.rebuild).toMatchObject({ state: 'done', error: null, holder: null });
    await runner.stop();
    const stopped = await append(2);
    // Counted once the log shows them: after every transaction older than theirs, on the whole server.
    const [behind] = await until(
      () => projectionHealth(deps, [projection]),
      ([read]) => read?.lagEvents === 2,
      10_000,
    );
    expect(behind).toMatchObject({ lagEvents: 2, holder: null });
    const [later] = await projectionHealth({ ...deps, now: () => new Date(Date.now() + 60_000) }, [
      projection,
    ]);
    expect(later?.state).toBe('catching up');
    expect(later?.lagSeconds).toBeGreaterThan(55);
    runner.start();
    expect(await runner.waitUntilPast(stopped, 20_000)).toBe(true);
  }, 60_000);
});
