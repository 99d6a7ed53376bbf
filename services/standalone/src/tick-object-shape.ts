import { createHook } from 'node:async_hooks';

/** The tick object held for the life of the thread (see `keepTickObjectShape`). */
let kept: object | undefined;

/**
 * Keeps node's `process.nextTick` fast for the life of this thread. Call it first thing on every thread
 * that serves or streams (each thread has its own `nextTick` and its own maps).
 *
 * `nextTick` builds its queue entry as `{ [async_id_symbol]: id, [trigger_async_id_symbol]: id, callback,
 * args }`. V8 remembers the object's shape after each computed key weakly, and its runtime for those keys
 * knows only two states: one shape seen (compiled into inline stores) or many (a runtime call per key, for
 * good). A full GC at a moment when no tick is queued frees those shapes; the next `nextTick` makes new
 * ones and the site is "many" for the rest of the process. Under load a redirect calls `nextTick` ~5
 * times (the request's stream ending, the response's write, the socket's resume), and in the launches
 * where this happened during start-up the event loop paid ~2.8 µs more per request (bench/RESULTS.md's
 * twelfth session, in git history: `git show c47accaf9d08:bench/RESULTS.md`). One tick object held forever keeps its shapes, and so the site's one shape, alive.
 *
 * The only way to reach a tick object is an async hook's `init`: enabled for this one `nextTick` only.
 */
export function keepTickObjectShape(): void {
  if (kept) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(doNothing);
  } finally {
    hook.disable();
  }
}

function doNothing(): void {}
