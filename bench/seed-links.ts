/**
 * Creates links for `bench:redirect` next to a running app, through the app's own LinkService (claim the
 * code, record the link, wait for the links read model), without the Pro plan's 500-a-month allowance:
 * `node --import tsx bench/seed-links.ts <email> <count> <concurrency> <codes file>` with the app's
 * DATA_DIR / DATABASE_URL. Writes the codes as a JSON array.
 */
import { writeFileSync } from 'node:fs';
import { createLogger, loadConfig } from '@sniplink/platform';
import { startRuntime } from '../services/standalone/src/runtime';

const [email = '', count = '10000', concurrency = '32', codesFile = ''] = process.argv.slice(2);
const config = loadConfig();
// Projection runners stand by next to the app (it holds their locks); create waits on its read model.
const runtime = await startRuntime(config, createLogger('warn'), { projections: true });
try {
  const userId = await runtime.accounts.findUserIdByEmail(email);
  if (!userId) throw new Error(`no account ${email}`);
  const codes: string[] = [];
  const started = performance.now();
  let next = 0;
  const total = Number(count);
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (next < total) {
        const i = next++;
        const link = await runtime.links.create(
          userId,
          { originalUrl: `https://example.com/articles/${i}?utm_source=bench`, title: null },
          { countAgainstPlan: false },
        );
        codes.push(link.shortCode);
      }
    }),
  );
  writeFileSync(codesFile, JSON.stringify(codes));
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(2)}\n`);
} finally {
  await runtime.stop();
}
process.exit(0);
