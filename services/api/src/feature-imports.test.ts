import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Shared plumbing, not features: any feature may import these, and they import no feature's internals. */
const PLUMBING = new Set(['http', 'shared', 'health', 'docs']);

const root = import.meta.dirname;
const features = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !PLUMBING.has(entry.name))
  .map((entry) => entry.name);

/** Every source file (tests aside) under a folder, recursively. */
function sourcesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The feature folders a feature's sources import from (relative imports that leave its folder). */
function importsOf(feature: string): Set<string> {
  const folder = path.join(root, feature);
  const imported = new Set<string>();
  for (const file of sourcesOf(folder)) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = path
        .relative(root, path.resolve(path.dirname(file), specifier ?? ''))
        .split(path.sep)[0];
      if (target && target !== feature && features.includes(target)) imported.add(target);
    }
  }
  return imported;
}

/** A cycle in the graph as the path that closes it ("a -> b -> a"), or null. */
function findCycle(graph: Map<string, Set<string>>): string | null {
  const done = new Set<string>();
  const visit = (node: string, trail: string[]): string | null => {
    if (trail.includes(node)) return [...trail.slice(trail.indexOf(node)), node].join(' -> ');
    if (done.has(node)) return null;
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...trail, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return null;
}

describe('the api feature folders', () => {
  it('import one another without a cycle, so each can be read, moved or left out on its own', () => {
    const graph = new Map(features.map((feature) => [feature, importsOf(feature)]));
    expect(features).toContain('accounts');
    expect(findCycle(graph)).toBeNull();
  });

  it('a cycle is found when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(graph)).toBe('a -> b -> c -> a');
  });
});
