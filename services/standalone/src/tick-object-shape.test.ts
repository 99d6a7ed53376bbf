import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HELPER = fileURLToPath(new URL('./tick-object-shape.ts', import.meta.url));

// A thread that queues ticks, then runs a full GC while none is queued, then queues more: what a process
// start-up can do by chance. V8's own print of `nextTick` shows the state of its tick-object literal.
const SCRIPT = `
import { keepTickObjectShape } from ${JSON.stringify(HELPER)};
if (process.argv[2] === 'keep') keepTickObjectShape();
const print = new Function('f', '%DebugPrint(f)');
for (let i = 0; i < 50; i++) process.nextTick(() => {});
setTimeout(() => {
  globalThis.gc();
  globalThis.gc();
  for (let i = 0; i < 50; i++) process.nextTick(() => {});
  setTimeout(() => print(process.nextTick), 10);
}, 10);
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sniplink-tick-'));
  await writeFile(path.join(dir, 'script.ts'), SCRIPT);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The states of the computed-key slots of `nextTick`'s tick-object literal after the GC. */
async function literalSlotStates(keep: boolean): Promise<string[]> {
  // Into a file: V8 prints with C stdio, which loses what a non-blocking pipe does not take at once.
  const out = path.join(dir, keep ? 'keep.txt' : 'no.txt');
  const file = await open(out, 'w');
  try {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--expose-gc',
        '--allow-natives-syntax',
        path.join(dir, 'script.ts'),
        keep ? 'keep' : 'no',
      ],
      { stdio: ['ignore', file.fd, 'inherit'] },
    );
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  } finally {
    await file.close();
  }
  const printed = await readFile(out, 'utf8');
  return [...printed.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1] as string);
}

describe("node's nextTick after a full GC with no tick queued", () => {
  it('goes to the slow runtime path for good without the kept tick object (the hazard is real on this node)', async () => {
    const states = await literalSlotStates(false);
    expect(
      states.length,
      'V8 printed no DefineKeyedOwnPropertyInLiteral slots for nextTick',
    ).toBeGreaterThanOrEqual(4);
    // If this ever fails, this node no longer loses the shapes: keepTickObjectShape can go.
    expect(states).toContain('MEGAMORPHIC');
  }, 30_000);

  it('keeps one shape per key with keepTickObjectShape, so optimised code stores inline', async () => {
    const states = await literalSlotStates(true);
    expect(states.length).toBeGreaterThanOrEqual(4);
    expect(new Set(states)).toEqual(new Set(['MONOMORPHIC']));
  }, 30_000);
});
