// Turning bad input into clear answers: 400 for unreadable JSON, 422 naming
// the field for a body that breaks a schema, never a 500.
import type { Context } from 'hono';
import { StructError, create, type Struct } from 'superstruct';

export class HttpError extends Error {
  constructor(readonly status: 400 | 401 | 404 | 409 | 413 | 422 | 429 | 503, message: string, readonly field?: string) {
    super(message);
  }
}

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new HttpError(400, 'The request body is empty; send JSON.');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
}

/** Checks and fills defaults; a failure names the field, e.g. "bookingForm.pickup". */
export function validate<T, S>(value: unknown, struct: Struct<T, S>, prefix = ''): T {
  try {
    return create(value, struct);
  } catch (err) {
    if (err instanceof StructError) {
      const field = [prefix, ...err.path.map(String)].filter(Boolean).join('.');
      throw new HttpError(422, describeFailure(field, err), field || undefined);
    }
    // superstruct itself can trip over hostile values (an object whose toString is not a function).
    throw new HttpError(422, `${prefix || 'body'}: a value has the wrong type`, prefix || undefined);
  }
}

function describeFailure(field: string, err: StructError): string {
  if (err.value === undefined && err.type !== 'never') return `${field || 'body'} is required`;
  if (err.type === 'never') return `${field} is not a known field`;
  const detail = err.message.replace(/^At path: [^ ]+ -- /, '');
  return field ? `${field}: ${detail}` : detail;
}

export async function readBody<T, S>(c: Context, struct: Struct<T, S>): Promise<T> {
  return validate(await readJson(c), struct);
}
