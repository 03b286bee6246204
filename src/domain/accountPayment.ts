// Paying on account at the payment step (issue 44, decision 62): the booking fields a company asks for and the checks
// of their values, and why an account cannot be used. Apart from ./accounts.ts (the office's forms, the invoices'
// months) because the booking wizard, on the first page, reads these few: the rest loads with the console.
export type AccountStatus = 'active' | 'suspended' | 'closed';

/** A field's value is at most this long. */
export const FIELD_VALUE_MAX = 60;

const textOf = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

export interface AccountField { id: number; label: string; required: boolean; options: string[] }


/**
 * The booking's values of the account's fields (field id -> value): a message per field that is wrong. A required
 * field must be filled; a list field takes one of its values (as listed, whatever the case typed); free text is at
 * most FIELD_VALUE_MAX characters. A value for no field of the account is refused too. `asker`: the account's name,
 * when the office books for its booker (the booker is told it is "your company").
 */
export function bookingFieldErrors(fields: AccountField[], values: Record<string, unknown>, asker = 'your company'): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const value = textOf(values[String(f.id)]);
    if (!value) {
      if (f.required) errors[f.id] = `Enter the ${f.label}: ${asker} asks for it on every booking.`;
      continue;
    }
    if (f.options.length && !f.options.some((o) => o.toLowerCase() === value.toLowerCase())) {
      errors[f.id] = `Choose the ${f.label} from the list.`;
    } else if (value.length > FIELD_VALUE_MAX) errors[f.id] = `The ${f.label} is at most ${FIELD_VALUE_MAX} characters.`;
  }
  for (const key of Object.keys(values)) {
    if (!fields.some((f) => String(f.id) === key) && textOf(values[key])) errors[key] = 'This field is no longer asked: reload the page.';
  }
  return errors;
}

/** The values as the booking keeps them: each field filled, by its label, as listed (a list's value in its own case). */
export function bookingFieldValues(fields: AccountField[], values: Record<string, unknown>): { label: string; value: string }[] {
  return fields.flatMap((f) => {
    const typed = textOf(values[String(f.id)]);
    if (!typed) return [];
    const value = f.options.find((o) => o.toLowerCase() === typed.toLowerCase()) ?? typed;
    return [{ label: f.label, value }];
  });
}

/** The booking call refused a value of the account's fields (a 422 naming account_fields.<id>): shown under it. */
export class AccountFieldError extends Error {
  constructor(message: string, readonly fieldId: string) { super(message); }
}

/** What a booker's payment step is told of the account (GET /account/billing). */
export interface AccountBilling {
  name: string; status: AccountStatus; reason: string; fields: AccountField[];
}

/** Why a booker cannot pay on account, in words they are shown with the office's phone; null when they can. */
export function accountRefusal(a: Pick<AccountBilling, 'name' | 'status' | 'reason'>, officePhone: string): string | null {
  const call = officePhone ? ` Please call us on ${officePhone}.` : ' Please contact us.';
  if (a.status === 'closed') return `${a.name}'s account is closed: bookings can no longer be paid on account.${call}`;
  if (a.status === 'suspended') return `${a.name}'s account is on hold${a.reason ? `: ${a.reason}` : ''}. Bookings cannot be paid on account for now.${call}`;
  return null;
}

