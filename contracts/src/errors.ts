import { z } from 'zod';

/**
 * Every error the API answers with: `{ code, message, field? }`. Messages never echo user input; the web
 * client matches on `code` (ARCHITECTURE section 7). Codes are added by the feature that needs them.
 */
export const errorCodes = ['VALIDATION_FAILED', 'BAD_REQUEST', 'NOT_FOUND', 'INTERNAL_ERROR'] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
