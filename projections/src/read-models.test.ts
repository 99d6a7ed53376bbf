import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Where SQL against a read model may stand: its own folder, the migrations (history), and tests and the
 * scripts that make test fixtures from a release's database (seeding, inspecting).
 */
const allowed = (file: string) =>
  file.startsWith('projections/') ||
  file.startsWith('scripts/make-') ||
  file.startsWith('services/platform/src/db/migrations/') ||
  /\.test\.tsx?$/.test(file);

/** A Kysely call or a table reference naming a read-model table (`'rm_links'`, `"rm_users.user_id"`), or SQL doing so. */
const namesReadModelTable = [
  /['"`]rm_\w+/,
  /\b(FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE|ANALYZE|ON)\s+(ONLY\s+)?rm_\w+/,
];

/** The repository's source files (tracked, and new ones git does not ignore), relative to its root. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed.split('\n').filter((file) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file));
}

describe('one home per read model', () => {
  it('no package but projections/ writes SQL or a Kysely call against an rm_* table', () => {
    const files = sourceFiles();
    expect(files).toContain('projections/src/read-models.ts');
    const offences: string[] = [];
    for (const file of files.filter((candidate) => !allowed(candidate))) {
      const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (namesReadModelTable.some((pattern) => pattern.test(line)))
          offences.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    // Each one belongs in a query function of projections/src/<read model>/queries.ts.
    expect(offences).toEqual([]);
  });
});
