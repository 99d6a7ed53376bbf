import { z } from 'zod';

/**
 * A place's id in the address (`?ticket=…`, `?user=…`). The router reads a query value as JSON where it
 * can, so an id typed by hand that looks like a number arrives as one: it is an id all the same. Anything
 * else (an object, an empty value) is no place, never an error page.
 */
export const idParam = z
  .union([z.string().min(1), z.number().transform(String)])
  .optional()
  .catch(undefined);

/** A search box's text in the address, read the same way as an id. */
export const textParam = z
  .union([z.string(), z.number().transform(String)])
  .optional()
  .catch(undefined);

/** A page of a list (`?page=2`); page 1 is the address without it. */
export const pageParam = z.number().int().min(1).optional().catch(undefined);

/** A revision of a stream (`?event=0`): a whole number from 0. */
export const revisionParam = z.number().int().min(0).optional().catch(undefined);

/** What a page number becomes in the address: nothing for the first page. */
export const pageInAddress = (page: number): number | undefined => (page > 1 ? page : undefined);
