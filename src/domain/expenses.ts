// A booker's corporate area beside the Bookings table (issue 44 §3): their journeys for expenses, filtered by pickup
// date and by one of their company account's fields, and their account's monthly invoices. The filter's rule (the
// same as the server's, in the same words), the shapes the area reads back from GET /account/journeys and GET
// /account/invoices, and how a journey's payment and status read.
import { array, boolean, enums, nullable, number, string, type, type Infer } from 'superstruct';
import { isCalendarDate } from './ukTime';
import { FIELD_VALUE_MAX } from './accounts';

/** The filter as the form holds it: '' for a part left out. */
export interface JourneyFilter { from: string; to: string; field: string; value: string }
export const NO_FILTER: JourneyFilter = { from: '', to: '', field: '', value: '' };

/** What is wrong with a filter, on the field to correct; null when it can be asked for. */
export function journeyFilterProblem(f: JourneyFilter): { field: keyof JourneyFilter; message: string } | null {
  const from = f.from.trim();
  const to = f.to.trim();
  if (from && !isCalendarDate(from)) return { field: 'from', message: 'Enter the first day as a date, like 01/10/2026.' };
  if (to && !isCalendarDate(to)) return { field: 'to', message: 'Enter the last day as a date, like 31/10/2026.' };
  if (from && to && from > to) return { field: 'to', message: 'The first day comes after the last.' };
  if (f.value.trim() && !f.field.trim()) return { field: 'field', message: 'Choose the field to look in.' };
  if (f.value.trim().length > FIELD_VALUE_MAX) return { field: 'value', message: `At most ${FIELD_VALUE_MAX} characters.` };
  return null;
}

/** The query of GET /account/journeys (and its CSV) for a filter: the parts given, trimmed. */
export function journeyQuery(f: JourneyFilter): Record<string, string> {
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== ''));
}

/** Whether the filter leaves everything out. */
export const isNoFilter = (f: JourneyFilter): boolean => Object.keys(journeyQuery(f)).length === 0;

/** The CSV's file name, as the server names it: journeys.csv, journeys-from-2026-10-01-to-2026-10-31.csv. */
export const journeysFileName = (f: JourneyFilter): string =>
  `journeys${f.from.trim() ? `-from-${f.from.trim()}` : ''}${f.to.trim() ? `-to-${f.to.trim()}` : ''}.csv`;

const FieldValue = type({ label: string(), value: string() });

/** One journey of GET /account/journeys: a booking of the booker's, its amount in pounds, its account's fields. */
export const Journey = type({
  booking_number: string(), pick_up_date: string(), pick_up_time: string(), pickup: string(), dropoff: nullable(string()),
  hourly_duration: nullable(string()), passenger: string(), vehicle: string(), payment_method: string(), status: string(),
  amount: string(), fields: array(FieldValue), invoice: nullable(string()),
});
export type Journey = Infer<typeof Journey>;

/** GET /account/journeys: the labels of the account's fields (none for a passenger of no account), and the journeys. */
export const JourneysAnswer = type({ fields: array(string()), journeys: array(Journey) });
export type JourneysAnswer = Infer<typeof JourneysAnswer>;

/** How a journey was paid and where it stands, in the words of the journeys' CSV. */
export const JOURNEY_PAYMENT_LABELS: Record<string, string> = { car: 'Pay to driver', card: 'Pay by Card', account: 'On account' };
export const JOURNEY_STATUS_LABELS: Record<string, string> = {
  confirmed: 'Booked', completed: 'Completed', no_show: 'No-show', cancelled: 'Cancelled', expired: 'Expired', pending: 'Awaiting payment',
};
export const journeyPayment = (j: Pick<Journey, 'payment_method'>) => JOURNEY_PAYMENT_LABELS[j.payment_method] ?? j.payment_method;
export const journeyStatus = (j: Pick<Journey, 'status'>) => JOURNEY_STATUS_LABELS[j.status] ?? j.status;
/** The destination, or an hourly hire's hours ('Hourly, 6 hours'). */
export const journeyDestination = (j: Pick<Journey, 'dropoff' | 'hourly_duration'>): string =>
  j.dropoff ?? (j.hourly_duration ? `Hourly, ${j.hourly_duration.replace(/hour$/, ' hours')}` : '');
/** A journey's value of one of the account's fields ('' when it has none). */
export const journeyField = (j: Pick<Journey, 'fields'>, label: string): string => j.fields.find((f) => f.label === label)?.value ?? '';

/** A journey's invoice: its number, 'Not yet invoiced' for one on account before its month's invoice, or '' (paid otherwise). */
export const journeyInvoice = (j: Pick<Journey, 'invoice' | 'payment_method'>): string =>
  j.invoice ?? (j.payment_method === 'account' ? 'Not yet invoiced' : '');

/** The columns of the account's fields for these journeys: the account's own, then any an older journey still has. */
export function fieldColumns(a: JourneysAnswer): string[] {
  return [...new Set([...a.fields, ...a.journeys.flatMap((j) => j.fields.map((f) => f.label))])];
}

/** A credit or debit note listed under an invoice: carried onto it, or issued against it since (carried onto the next). */
export const InvoiceNote = type({
  label: string(), kind: enums(['credit', 'debit']), invoice: string(), booking_number: nullable(string()), amount: string(), carried: boolean(),
});
export type InvoiceNote = Infer<typeof InvoiceNote>;

/** One invoice of GET /account/invoices, as the lists show it (no lines). */
export const InvoiceSummary = type({
  number: number(), label: string(), month: string(), issued_on: string(), due_on: string(), paid_on: nullable(string()),
  status: enums(['due', 'overdue', 'paid']), status_label: string(), journeys: number(), gross: string(), amount_due: string(),
  notes: array(InvoiceNote),
});
export type InvoiceSummary = Infer<typeof InvoiceSummary>;

/** GET /account/invoices: the booker's company account (null: their sign-in belongs to none) and its invoices, newest first. */
export const InvoicesAnswer = type({ account: nullable(type({ name: string() })), invoices: array(InvoiceSummary) });
export type InvoicesAnswer = Infer<typeof InvoicesAnswer>;

/** The documents a booker may download from the list: each invoice and each note under it, by label. */
export const listedDocuments = (a: InvoicesAnswer): string[] => a.invoices.flatMap((i) => [i.label, ...i.notes.map((n) => n.label)]);

/** What a note is, in words: 'Credit note', 'Debit note'. */
export const noteTitle = (n: Pick<InvoiceNote, 'kind'>) => (n.kind === 'credit' ? 'Credit note' : 'Debit note');
