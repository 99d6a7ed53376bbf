import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); `.ci/run` installs it when missing. */
export const chromiumPath = '/usr/bin/chromium';

/** Why the browser suites cannot run here, or undefined when they can. */
export function browserUnavailableReason(): string | undefined {
  return existsSync(chromiumPath)
    ? undefined
    : `${chromiumPath} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests`;
}

/**
 * A real desktop Chrome's user agent. Headless Chrome announces itself as "HeadlessChrome", which the
 * redirect counts as a bot; with this one the test's clicks count like a person's.
 */
export const desktopChromeUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newDesktopContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    userAgent: desktopChromeUserAgent,
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
  });
  // Fail a step well inside the test's own time limit, so that the report names the step.
  context.setDefaultTimeout(10_000);
  return context;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Runs axe-core in the page and returns its violations of impact "serious" or "critical". axe is run as
 * the test's own code (DevTools' evaluate), not as a `<script>` added to the page, which the page's
 * policy (script-src 'self') rightly refuses.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  return accessibilityViolations(page, ['serious', 'critical']);
}

/** What axe-core finds on the page at rest, of the impacts given (every impact by default), one line each. */
export async function accessibilityViolations(
  page: Page,
  impacts: readonly string[] = ['minor', 'moderate', 'serious', 'critical'],
): Promise<string[]> {
  await transitionsSettled(page);
  const require = createRequire(import.meta.url);
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => impacts.includes(violation.impact ?? ''))
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes
          .map((node) => `${JSON.stringify(node.target)} (${node.failureSummary ?? ''})`)
          .join(', ')}`,
    );
}

/**
 * Waits until no finite animation or transition runs, twice in a row a frame apart (a closing dialog
 * starts its fade a frame after the click). Measured mid-fade, a dialog's title is grey on grey: a
 * contrast no user reads at rest. Endless animations (a loader's spin) are not waited for.
 */
async function transitionsSettled(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as { settledFrames?: number }).settledFrames = 0;
  });
  await page.waitForFunction(
    () => {
      const state = globalThis as unknown as { settledFrames?: number };
      const { document } = globalThis as unknown as {
        document: {
          getAnimations(): {
            playState: string;
            effect: { getTiming(): { iterations?: number } } | null;
          }[];
        };
      };
      const moving = document
        .getAnimations()
        .some(
          (animation) =>
            animation.playState === 'running' &&
            animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
        );
      state.settledFrames = moving ? 0 : (state.settledFrames ?? 0) + 1;
      return state.settledFrames >= 2;
    },
    undefined,
    { polling: 'raf', timeout: 5_000 },
  );
}
