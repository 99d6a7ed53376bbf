import { z } from 'zod';

/** `PATCH /api/admin/users/{id}/suspend`; it answers with the admin user. */
export const suspendUserBody = z.object({ suspended: z.boolean() });
export type SuspendUserBody = z.infer<typeof suspendUserBody>;
