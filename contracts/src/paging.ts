import { z } from 'zod';

const FROM_ONE = 'must be a whole number from 1';

/** A `page` query parameter: a whole number from 1 to `last` (the deepest page served), 1 when absent. */
export const pageNumber = (last: number) =>
  z.coerce
    .number({ error: FROM_ONE })
    .int(FROM_ONE)
    .min(1, FROM_ONE)
    .max(last, `must be at most ${last.toLocaleString('en-US')}`)
    .default(1);
