import type { z } from 'zod';

/** `{ type, data }` for every schema of a stream's event map: the union its decider folds. */
export type EventUnion<Schemas extends Record<string, z.ZodType>> = {
  [Type in keyof Schemas & string]: { type: Type; data: z.infer<Schemas[Type]> };
}[keyof Schemas & string];
