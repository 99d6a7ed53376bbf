import { z } from 'zod';

/**
 * Every error the API answers with: `{ code, message, field? }`. Messages never echo user input; the web
 * client matches on `code` (docs/architecture.md, "Accounts"). A 401's message is "Unauthorized".
 */
export const errorCodes = [
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'FORBIDDEN_ORIGIN',
  'ADMIN_REQUIRED',
  'INSUFFICIENT_SCOPE',
  'NOT_FOUND',
  'CONFLICT',
  'TICKET_CLOSED',
  'EMAIL_TAKEN',
  'INVALID_CREDENTIALS',
  'ACCOUNT_SUSPENDED',
  'INVALID_TOKEN',
  'INVALID_URL',
  'INVALID_SHORT_CODE',
  'SHORT_CODE_TAKEN',
  'PROHIBITED_CODE',
  'PROTECTED_BRAND',
  'SUBSCRIPTION_REQUIRED',
  'MONTHLY_LIMIT_REACHED',
  'PAYMENTS_DISABLED',
  'GONE',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z
  .object({
    code: z.enum(errorCodes),
    message: z.string(),
    field: z.string().optional(),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
