import type { ErrorCode } from '@sniplink/contracts';

/**
 * A rule said no. Each carries the API's error code and HTTP status; one error handler maps them to
 * JSON. Messages are written for the user and never contain what the user typed.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** Fields the error's JSON body carries besides code and message (e.g. `requiresPro`). */
  readonly details?: Readonly<Record<string, unknown>>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  readonly status = 400;
  constructor(message: string, field?: string, code: ErrorCode = 'VALIDATION_FAILED') {
    super(code, message, field);
  }
}

export class UnauthorizedError extends DomainError {
  readonly status = 401;
  constructor(code: ErrorCode = 'UNAUTHORIZED', message = 'Unauthorized') {
    super(code, message);
  }
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
}

export class NotFoundError extends DomainError {
  readonly status = 404;
  constructor(message = 'Not found') {
    super('NOT_FOUND', message);
  }
}

export class ConflictError extends DomainError {
  readonly status = 409;
}

export class RateLimitedError extends DomainError {
  readonly status = 429;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
  }
}

export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  constructor(message = 'The service is busy; please try again') {
    super('SERVICE_UNAVAILABLE', message);
  }
}
