import type { ReadinessCheckResult as CheckResult, Readiness } from '@sniplink/contracts';

export type { CheckResult, Readiness };
export type ReadinessCheck = () => Promise<CheckResult>;

/** Runs every check at once, each bounded by `timeoutMs`; a check that throws or hangs is failing. */
export async function checkReadiness(
  checks: Record<string, ReadinessCheck>,
  timeoutMs = 2_000,
): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => [name, await bounded(check, timeoutMs)] as const),
  );
  const results = Object.fromEntries(entries);
  return { status: entries.every(([, result]) => result.ok) ? 'ok' : 'degraded', checks: results };
}

async function bounded(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    const result = await Promise.race([check(), timeout]);
    return { ...result, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
