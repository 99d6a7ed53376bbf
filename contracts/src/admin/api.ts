import { z } from 'zod';

/** `PATCH /api/admin/users/{id}/suspend` (admin-console.md section 7). */
export const suspendUserBody = z.object({ suspended: z.boolean() });
export type SuspendUserBody = z.infer<typeof suspendUserBody>;

/** What a change to a user's standing answers with. */
export const userStandingSchema = z.object({ id: z.string(), suspended: z.boolean() });
export type UserStanding = z.infer<typeof userStandingSchema>;
