import { z } from 'zod';

export const projectionStateSchema = z.enum(['running', 'catching up', 'rebuilding', 'failed']);

/** A projection's rebuild as the console shows it (the latest one, running or finished). */
export const projectionRebuildSchema = z.object({
  state: z.enum(['building', 'swapping', 'done', 'failed']),
  applied: z.number().int(),
  eventsPerSecond: z.number().nullable(),
  etaSeconds: z.number().nullable(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  swapMs: z.number().nullable(),
  error: z.string().nullable(),
  requestedBy: z.string().nullable(),
  holder: z.string().nullable(),
});

/** One projection's health: where its read model is in the log, how far behind, who runs it. */
export const projectionHealthSchema = z.object({
  name: z.string(),
  version: z.number().int(),
  storedVersion: z.number().int().nullable(),
  position: z.string().nullable(),
  head: z.string(),
  lagEvents: z.number().int(),
  lagCapped: z.boolean(),
  lagSeconds: z.number(),
  lastError: z.string().nullable(),
  lastErrorAt: z.iso.datetime().nullable(),
  state: projectionStateSchema,
  holder: z.string().nullable(),
  rebuild: projectionRebuildSchema.nullable(),
});
export type ProjectionHealthEntry = z.infer<typeof projectionHealthSchema>;

export const projectionHealthListSchema = z.object({ projections: z.array(projectionHealthSchema) });

export const rebuildStartedSchema = z.object({ name: z.string(), started: z.literal(true) });
