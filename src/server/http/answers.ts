// Every refusal's HTTP answer, in one place: a DomainError's kind gives its status (and Retry-After when it says
// when to try again); a lost race for a unique value is a 409; anything else is a 500 that is logged. Error bodies
// carry `message` and, as SPEC 7's contact call reads it, `error`; `field` names the culprit.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type RefusalKind } from '../errors';

export const STATUS_OF: Record<RefusalKind, ContentfulStatusCode> = {
  malformed: 400, invalid: 422, unauthenticated: 401, forbidden: 403, notFound: 404, gone: 410, conflict: 409, tooLarge: 413, tooMany: 429, busy: 503,
};

/** PostgreSQL's SQLSTATE for a unique-index violation (PGlite reports the same). */
const UNIQUE_VIOLATION = '23505';

export const errorBody = (message: string, field?: string) => ({ success: false as const, message, error: message, field });

export function answerRefusal(c: Context, err: DomainError): Response {
  const headers = err.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(err.retryAfterSeconds) };
  return c.json(errorBody(err.message, err.field), STATUS_OF[err.kind], headers);
}

/** The answer to anything a handler threw. */
export function answerError(err: unknown, c: Context): Response {
  if (err instanceof DomainError) return answerRefusal(c, err);
  // Two requests raced for one unique value; every known race is handled where it happens, and any other is a conflict to retry, not a fault.
  if ((err as { code?: string }).code === UNIQUE_VIOLATION) {
    console.warn(`${c.req.method} ${c.req.path}: unique violation (${(err as Error).message})`);
    return c.json(errorBody('This conflicts with a request made at the same moment. Please try again.'), 409);
  }
  console.error(`${c.req.method} ${c.req.path} failed:`, err);
  return c.json(errorBody('Something went wrong on our side. Please try again or call us.'), 500);
}
