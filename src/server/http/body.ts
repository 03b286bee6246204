// Reading a request body: 400 (malformed) for unreadable JSON, 422 (invalid) naming the field for a body that
// breaks a schema, never a 500.
import type { Context } from 'hono';
import { StructError, create, type Struct } from 'superstruct';
import { BookingForm } from '../../domain/schemas';
import { DomainError } from '../errors';
import { fastBookingForm } from './fastForms';

/** Deeper than any request of this API: a booking is 4 levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text opens more than `max` arrays or objects inside one another, counted before it is parsed: what
 * reads a parsed value recursively (the request hash of an Idempotency-Key, superstruct) would overflow the stack on
 * thousands of levels. Brackets inside strings do not count.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 /* [ */ || ch === 123 /* { */) { if (++depth > max) return true; }
    else if (ch === 93 /* ] */ || ch === 125 /* } */) depth--;
  }
  return false;
}

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new DomainError('malformed', 'The request body is empty; send JSON.');
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new DomainError('malformed', `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('malformed', 'The request body is not valid JSON.');
  }
}

/** Checks and fills defaults; a failure names the field, e.g. "bookingForm.pickup". */
export function validate<T, S>(value: unknown, struct: Struct<T, S>, prefix = ''): T {
  // The booking form's common case is checked without superstruct (fastForms.ts); anything else goes through it.
  if (struct === (BookingForm as unknown)) {
    const quick = fastBookingForm(value);
    if (quick) return quick as T;
  }
  try {
    return create(value, struct);
  } catch (err) {
    if (err instanceof StructError) {
      const field = [prefix, ...err.path.map(String)].filter(Boolean).join('.');
      throw new DomainError('invalid', describeFailure(field, err), field || undefined);
    }
    // superstruct itself can trip over hostile values (an object whose toString is not a function).
    throw new DomainError('invalid', `${prefix || 'body'}: a value has the wrong type`, prefix || undefined);
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
