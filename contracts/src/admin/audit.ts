import { z } from 'zod';

/**
 * `GET /api/admin/audit`: the history of what admins did in the console and operators did from
 * the command line, newest first. Every event such a command appended is one entry.
 */

export const AUDIT_PAGE_SIZE = 20;
export const AUDIT_MAX_PAGE_SIZE = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHOLE_NUMBER = /^[1-9][0-9]{0,5}$/;

/** Each parameter once (a repeated one arrives as an array: the wrong type, a 400 naming it). */
export const auditQuery = z.object({
  actor: z
    .string()
    .refine((value) => UUID.test(value) || value === 'operator', 'must be a user id or operator')
    .optional()
    .describe('Only what this admin (a user id) did, or `operator` for the command-line tools'),
  target: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'must be a stream id (user-{id}) or an id')
    .optional()
    .describe('Only what was done to this: a stream id (`user-{id}`), or the id alone'),
  page: z
    .string()
    .regex(WHOLE_NUMBER, 'must be a whole number from 1')
    .optional()
    .describe('From 1 (the newest entries); default 1'),
  pageSize: z
    .string()
    .regex(WHOLE_NUMBER, `must be a whole number from 1 to ${AUDIT_MAX_PAGE_SIZE}`)
    .refine((value) => Number(value) <= AUDIT_MAX_PAGE_SIZE, `must be at most ${AUDIT_MAX_PAGE_SIZE}`)
    .optional()
    .describe(`Entries per page, at most ${AUDIT_MAX_PAGE_SIZE}; default ${AUDIT_PAGE_SIZE}`),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/**
 * Who acted: an admin in the console (their user id; their e-mail address, null once the account is
 * erased), the operator at the command line, or the system on the console's behalf.
 */
export const auditActorSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  kind: z.enum(['admin', 'operator', 'system']),
  erased: z.boolean(),
});
export type AuditActor = z.infer<typeof auditActorSchema>;

export const auditEntrySchema = z.object({
  /** The event's id. */
  id: z.string(),
  occurredAt: z.string(),
  /** The event's type: `UserSuspended`, `AdminGranted`, … */
  action: z.string(),
  actor: auditActorSchema,
  /** What it was done to: the event's stream (`user-{id}` is `{ type: 'user', id }`). */
  target: z.object({ type: z.string(), id: z.string(), streamId: z.string() }),
  /** What the event says, without personal data (kept encrypted) or anything secret. */
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Whether an older page has entries. */
  hasMore: z.boolean(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
