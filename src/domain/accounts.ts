// Corporate accounts that pay monthly on one invoice (issue 44, decision 62): the rules of the account's forms, its
// booking fields, whether a booking may be paid on account, and the month an invoice is for. The console's forms, the
// payment step and the server all ask these; the server enforces them.
import { emailProblem } from './fields';
import { formatExactPrice, penceToPounds, poundsToPence } from './money';
import { isCalendarDate } from './ukTime';
import type { FormErrors } from './operatorDesk';
import { FIELD_VALUE_MAX, type AccountStatus } from './accountPayment';

export * from './accountPayment';

export const ACCOUNT_STATUSES = ['active', 'suspended', 'closed'] as const satisfies readonly AccountStatus[];
export const ACCOUNT_STATUS_LABELS: Record<AccountStatus, string> = { active: 'Active', suspended: 'Suspended', closed: 'Closed' };

/** The most booking fields an account has, and the most values a list offers. */
export const MAX_FIELDS = 6;
export const MAX_OPTIONS = 50;

/** The account form as the console sends it (text inputs; the limit in pounds). */
export interface AccountInput {
  name: string; address: string; billing_email: string; vat_number: string; terms_days: string; credit_limit: string;
  status: string; status_reason: string; company_id: string;
}
/** A booking field's form: options one per line (none: free text). */
export interface FieldInput { label: string; required: string; options: string; active: string }

type Loose<T> = Partial<Record<keyof T, unknown>>;
const textOf = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const isYes = (v: unknown) => v === true || ['yes', 'true'].includes(textOf(v));
const isYesOrNo = (v: unknown) => v === undefined || v === true || v === false || ['yes', 'no', 'true', 'false', ''].includes(textOf(v));

/** A UK VAT number as HMRC prints it: GB and 9 digits (or 12 for a branch), or a government department's GBGD/GBHA. */
export const isVatNumber = (typed: string): boolean => /^(GB)?(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/.test(typed.replace(/\s+/g, '').toUpperCase());

/** The account form's rules: field -> message. */
export function accountErrors(a: Loose<AccountInput>): FormErrors<AccountInput> {
  const errors: FormErrors<AccountInput> = {};
  const name = textOf(a.name);
  if (!name) errors.name = "Enter the company's name.";
  else if (name.length > 120) errors.name = "The company's name is at most 120 characters.";
  if (textOf(a.address).length > 300) errors.address = 'The address is at most 300 characters.';
  const email = emailProblem(textOf(a.billing_email));
  if (email) errors.billing_email = textOf(a.billing_email) ? email : 'Enter the e-mail address invoices are sent to.';
  const vat = textOf(a.vat_number);
  if (vat && !isVatNumber(vat)) errors.vat_number = 'Enter a UK VAT number, e.g. GB 123 4567 89, or leave it empty.';
  const terms = textOf(a.terms_days);
  if (!/^\d{1,3}$/.test(terms) || Number(terms) > 120) errors.terms_days = 'Payment terms: a whole number of days from 0 to 120.';
  const limit = textOf(a.credit_limit);
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(limit)) errors.credit_limit = 'Credit limit: an amount in pounds, like 5000 or 2500.50.';
  const status = textOf(a.status) || 'active';
  if (!(ACCOUNT_STATUSES as readonly string[]).includes(status)) errors.status = 'Choose active, suspended or closed.';
  else if (status !== 'active' && !textOf(a.status_reason)) {
    errors.status_reason = "Say why, in words the account's bookers are shown (e.g. Invoice INV-000123 is overdue).";
  }
  if (textOf(a.status_reason).length > 200) errors.status_reason = 'The reason is at most 200 characters.';
  const company = textOf(a.company_id);
  if (company && !/^\d{1,9}$/.test(company)) errors.company_id = 'Choose the company that looks after the account, or none.';
  return errors;
}

export interface AccountRecord {
  name: string; address: string; billing_email: string; vat_number: string; terms_days: number; credit_limit_pence: number;
  status: AccountStatus; status_reason: string; company_id: number | null;
}

/** The record a checked account form makes: the VAT number spaced as HMRC prints it, the limit in pence. */
export function accountRecord(a: Loose<AccountInput>): AccountRecord {
  const status = (textOf(a.status) || 'active') as AccountStatus;
  return {
    name: textOf(a.name), address: textOf(a.address), billing_email: textOf(a.billing_email), vat_number: formatVatNumber(textOf(a.vat_number)),
    terms_days: Number(textOf(a.terms_days)), credit_limit_pence: poundsToPence(textOf(a.credit_limit)), status,
    status_reason: status === 'active' ? '' : textOf(a.status_reason), company_id: textOf(a.company_id) ? Number(textOf(a.company_id)) : null,
  };
}

/** GB 123 4567 89 (HMRC's spacing); '' stays ''. */
export function formatVatNumber(typed: string): string {
  const compact = typed.replace(/\s+/g, '').toUpperCase();
  if (!compact) return '';
  const digits = compact.replace(/^GB/, '');
  if (/^\d{9}$/.test(digits)) return `GB ${digits.slice(0, 3)} ${digits.slice(3, 7)} ${digits.slice(7)}`;
  if (/^\d{12}$/.test(digits)) return `GB ${digits.slice(0, 3)} ${digits.slice(3, 7)} ${digits.slice(7, 9)} ${digits.slice(9)}`;
  return `GB${digits}`;
}

/** The values a list field allows, from its form (one per line, or separated by commas), each once. */
export function optionsOf(text: string): string[] {
  const values = text.split(/[\n,]/).map((v) => v.trim()).filter(Boolean);
  return values.filter((v, i) => values.findIndex((w) => w.toLowerCase() === v.toLowerCase()) === i);
}

/** A booking field's form rules. */
export function fieldErrors(f: Loose<FieldInput>): FormErrors<FieldInput> {
  const errors: FormErrors<FieldInput> = {};
  const label = textOf(f.label);
  if (!label) errors.label = 'Enter the field\'s name, e.g. PO number.';
  else if (label.length > 40) errors.label = "The field's name is at most 40 characters.";
  const options = optionsOf(textOf(f.options));
  if (options.length > MAX_OPTIONS) errors.options = `At most ${MAX_OPTIONS} values.`;
  else if (options.some((o) => o.length > FIELD_VALUE_MAX)) errors.options = `Each value is at most ${FIELD_VALUE_MAX} characters.`;
  if (!isYesOrNo(f.required)) errors.required = 'Choose whether the field is required.';
  if (!isYesOrNo(f.active)) errors.active = 'Choose whether the field is asked.';
  return errors;
}

export function fieldRecord(f: Loose<FieldInput>): { label: string; required: boolean; options: string[]; active: boolean } {
  return { label: textOf(f.label), required: isYes(f.required), options: optionsOf(textOf(f.options)), active: f.active === undefined || textOf(f.active) === '' || isYes(f.active) };
}

/**
 * Whether a booking of `bookingPence` fits under the account's credit limit, given what the account owes and has
 * booked (unpaid invoices, and journeys not yet invoiced): the refusal, in words, or null.
 */
export function creditRefusal(limitPence: number, exposurePence: number, bookingPence: number, officePhone: string | { account: string }): string | null {
  if (exposurePence + bookingPence <= limitPence) return null;
  const left = Math.max(0, limitPence - exposurePence);
  // Said to the office booking for the account's booker (issue 44): the account named, and what the office may do.
  const office = typeof officePhone === 'object' ? officePhone.account : null;
  const call = office !== null ? ' Choose another way to pay; the office can raise the limit under Accounts.'
    : officePhone ? ` Please call us on ${officePhone}, or pay by another method.` : ' Please contact us, or pay by another method.';
  return `This booking (${formatExactPrice(penceToPounds(bookingPence))}) would take ${office !== null ? `${office}'s` : "your company's"} account past its credit limit: `
    + `${formatExactPrice(penceToPounds(left))} of ${formatExactPrice(penceToPounds(limitPence))} is left.${call}`;
}

/** The calendar month before the one of `today` (a UK date): its first day, and the first day of the month after it. */
export function previousMonth(today: string): { start: string; end: string } {
  const [y, m] = today.split('-').map(Number);
  const start = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
  return { start, end: `${today.slice(0, 7)}-01` };
}

/** 'October 2026' for a month's first day. */
export function monthLabel(start: string): string {
  const [y, m] = start.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** A month's first day, from the console's 2026-10 (or a date in it); null when it is no month. */
export function monthStart(typed: string): string | null {
  const t = typed.trim();
  const day = /^\d{4}-\d{2}$/.test(t) ? `${t}-01` : t;
  return isCalendarDate(day) ? `${day.slice(0, 7)}-01` : null;
}

/** The day an invoice issued on `issued` (a UK date) is due, after the account's terms. */
export function dueOn(issued: string, termsDays: number): string {
  const [y, m, d] = issued.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + termsDays)).toISOString().slice(0, 10);
}

export type InvoiceStatus = 'paid' | 'due' | 'overdue';
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = { paid: 'Paid', due: 'Due', overdue: 'Overdue' };

/** Where an account's invoice stands on `today`: paid once marked, overdue after its due day, due until then. */
export function invoiceStatus(i: { paid_on: string | null; due_on: string }, today: string): InvoiceStatus {
  if (i.paid_on) return 'paid';
  return today > i.due_on ? 'overdue' : 'due';
}

/** What a statement asks to be paid: the invoice's gross, less the credit notes and plus the debit notes carried onto it. */
export function amountDue(grossPence: number, notes: { kind: 'credit' | 'debit'; gross_pence: number }[]): number {
  return notes.reduce((sum, n) => sum + (n.kind === 'debit' ? n.gross_pence : -n.gross_pence), grossPence);
}

/** A journey on an account's invoice: what its line shows. */
export interface AccountInvoiceLine {
  booking_number: string; date: string; passenger: string; route: string; vehicle: string;
  fields: { label: string; value: string }[]; pence: number;
}

/** The office's change of what an account's finished journey is charged (issue 44): the form's rules. */
export interface ChargeInput { amount: string; reason: string }
export function chargeErrors(c: Loose<ChargeInput>): FormErrors<ChargeInput> {
  const errors: FormErrors<ChargeInput> = {};
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(textOf(c.amount))) errors.amount = 'The new charge: an amount in pounds, like 84.50 (0 to waive it).';
  const reason = textOf(c.reason);
  if (!reason) errors.reason = 'Say why the charge changes (the account is sent a credit or debit note saying so).';
  else if (reason.length > 200) errors.reason = 'The reason is at most 200 characters.';
  return errors;
}

/** Whether the office may change what a journey is charged: a journey on account, once completed or a no-show. */
export const mayAdjustCharge = (b: { status: string; account_id: number | null }): boolean =>
  b.account_id !== null && (b.status === 'completed' || b.status === 'no_show');
