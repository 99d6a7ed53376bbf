import { z } from 'zod';

/** GET /healthz: the process is up. */
export const livenessSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' });
export type Liveness = z.infer<typeof livenessSchema>;

/** One readiness check: ok, plus whatever it measured (latency, lag, head position). */
export const readinessCheckSchema = z.looseObject({ ok: z.boolean() });
export type ReadinessCheckResult = z.infer<typeof readinessCheckSchema>;

/** GET /readyz: 200 when every check passes, 503 with the same body otherwise. */
export const readinessSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    checks: z.record(z.string(), readinessCheckSchema),
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof readinessSchema>;
