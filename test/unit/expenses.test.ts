// Issue 44's corporate area rules (src/domain/expenses.ts): the journeys' filter (its checks in the server's words, its
// query, its file name), the shapes read back from the booker's calls, and how a journey and a note read.
import { describe, expect, it } from 'vitest';
import { is } from 'superstruct';
import {
  InvoiceNote, InvoiceSummary, InvoicesAnswer, Journey, JourneysAnswer, NO_FILTER, fieldColumns, isNoFilter, journeyDestination, journeyField,
  journeyFilterProblem, journeyInvoice, journeyPayment, journeyQuery, journeyStatus, journeysFileName, listedDocuments, noteTitle,
  type JourneyFilter,
} from '../../src/domain/expenses';

const f = (over: Partial<JourneyFilter>): JourneyFilter => ({ ...NO_FILTER, ...over });

const JOURNEY = {
  booking_number: 'BK-ABCDEFGH', pick_up_date: '2026-10-10', pick_up_time: '08:00', pickup: "King's Cross", dropoff: 'Canary Wharf',
  hourly_duration: null, passenger: 'Charlotte Davies', vehicle: 'Executive Saloon', payment_method: 'account', status: 'completed',
  amount: '68.50', fields: [{ label: 'PO number', value: 'PO-4471' }], invoice: 'INV-000012',
};
const NOTE = { label: 'CN-000003', kind: 'credit', invoice: 'INV-000012', booking_number: 'BK-ABCDEFGH', amount: '5.00', carried: false };
const INVOICE = {
  number: 12, label: 'INV-000012', month: 'October 2026', issued_on: '2026-11-01', due_on: '2026-12-01', paid_on: null, status: 'due',
  status_label: 'Due', journeys: 1, gross: '68.50', amount_due: '68.50', notes: [NOTE],
};

describe("the journeys' filter", () => {
  it('takes no filter, and dates in order (the same day twice too)', () => {
    expect(journeyFilterProblem(NO_FILTER)).toBeNull();
    expect(journeyFilterProblem(f({ from: '2026-10-01', to: '2026-10-31' }))).toBeNull();
    expect(journeyFilterProblem(f({ from: '2026-10-01', to: '2026-10-01' }))).toBeNull();
    expect(journeyFilterProblem(f({ field: 'PO number', value: 'PO-44' }))).toBeNull();
  });

  it('says what is wrong on the field to correct, in the order the form reads', () => {
    expect(journeyFilterProblem(f({ from: '2026-13-01' }))).toEqual({ field: 'from', message: 'Enter the first day as a date, like 01/10/2026.' });
    expect(journeyFilterProblem(f({ from: ' 2026-02-30 ', to: 'soon' }))).toEqual({ field: 'from', message: 'Enter the first day as a date, like 01/10/2026.' });
    expect(journeyFilterProblem(f({ to: '31/10/2026' }))).toEqual({ field: 'to', message: 'Enter the last day as a date, like 31/10/2026.' });
    expect(journeyFilterProblem(f({ from: '2026-10-02', to: '2026-10-01' }))).toEqual({ field: 'to', message: 'The first day comes after the last.' });
    expect(journeyFilterProblem(f({ value: 'PO-1' }))).toEqual({ field: 'field', message: 'Choose the field to look in.' });
    expect(journeyFilterProblem(f({ field: ' ', value: 'PO-1' }))).toEqual({ field: 'field', message: 'Choose the field to look in.' });
    expect(journeyFilterProblem(f({ field: 'PO number', value: 'x'.repeat(61) }))).toEqual({ field: 'value', message: 'At most 60 characters.' });
    expect(journeyFilterProblem(f({ field: 'PO number', value: ` ${'x'.repeat(60)} ` }))).toBeNull();
  });

  it('asks for the parts given, trimmed, and names the CSV by its days', () => {
    expect(journeyQuery(f({ from: ' 2026-10-01 ', field: 'PO number', value: '  ' }))).toEqual({ from: '2026-10-01', field: 'PO number' });
    expect(journeyQuery(NO_FILTER)).toEqual({});
    expect(isNoFilter(NO_FILTER)).toBe(true);
    expect(isNoFilter(f({ to: ' ' }))).toBe(true);
    expect(isNoFilter(f({ value: 'x' }))).toBe(false);
    expect(journeysFileName(NO_FILTER)).toBe('journeys.csv');
    expect(journeysFileName(f({ from: ' 2026-10-01 ', to: '2026-10-31' }))).toBe('journeys-from-2026-10-01-to-2026-10-31.csv');
    expect(journeysFileName(f({ to: '2026-10-31' }))).toBe('journeys-to-2026-10-31.csv');
    expect(journeysFileName(f({ from: '2026-10-01' }))).toBe('journeys-from-2026-10-01.csv');
  });
});

describe('what the calls answer', () => {
  it('reads a journey and the journeys answer, refusing a wrong shape', () => {
    expect(is(JOURNEY, Journey)).toBe(true);
    expect(is({ ...JOURNEY, dropoff: null, hourly_duration: '4hour', invoice: null }, Journey)).toBe(true);
    for (const key of Object.keys(JOURNEY)) {
      expect(is({ ...JOURNEY, [key]: 12 }, Journey), key).toBe(false);
    }
    expect(is({ ...JOURNEY, fields: [{ label: 'PO number' }] }, Journey)).toBe(false);
    expect(is({ fields: ['PO number'], journeys: [JOURNEY] }, JourneysAnswer)).toBe(true);
    expect(is({ fields: [1], journeys: [] }, JourneysAnswer)).toBe(false);
    expect(is({ fields: [], journeys: [{}] }, JourneysAnswer)).toBe(false);
  });

  it('reads an invoice with its notes, and the invoices answer of a passenger of no account', () => {
    expect(is(NOTE, InvoiceNote)).toBe(true);
    expect(is({ ...NOTE, kind: 'refund' }, InvoiceNote)).toBe(false);
    expect(is({ ...NOTE, booking_number: null, carried: true, kind: 'debit' }, InvoiceNote)).toBe(true);
    expect(is({ ...NOTE, carried: 'no' }, InvoiceNote)).toBe(false);
    expect(is(INVOICE, InvoiceSummary)).toBe(true);
    for (const status of ['due', 'overdue', 'paid']) expect(is({ ...INVOICE, status }, InvoiceSummary), status).toBe(true);
    expect(is({ ...INVOICE, status: 'sent' }, InvoiceSummary)).toBe(false);
    expect(is({ ...INVOICE, number: '12' }, InvoiceSummary)).toBe(false);
    expect(is({ ...INVOICE, paid_on: '2026-11-20' }, InvoiceSummary)).toBe(true);
    expect(is({ account: null, invoices: [] }, InvoicesAnswer)).toBe(true);
    expect(is({ account: { name: 'Northbridge Consulting' }, invoices: [INVOICE] }, InvoicesAnswer)).toBe(true);
    expect(is({ account: { name: 3 }, invoices: [] }, InvoicesAnswer)).toBe(false);
  });
});

describe('how a journey and a note read', () => {
  it("says how it was paid and where it stands in the CSV's words, an unknown one as it is", () => {
    expect(['car', 'card', 'account', 'voucher'].map((m) => journeyPayment({ payment_method: m }))).toEqual(['Pay to driver', 'Pay by Card', 'On account', 'voucher']);
    expect(['confirmed', 'completed', 'no_show', 'cancelled', 'expired', 'pending', 'lost'].map((s) => journeyStatus({ status: s })))
      .toEqual(['Booked', 'Completed', 'No-show', 'Cancelled', 'Expired', 'Awaiting payment', 'lost']);
  });

  it("gives the destination, or an hourly hire's hours", () => {
    expect(journeyDestination({ dropoff: 'Canary Wharf', hourly_duration: '4hour' })).toBe('Canary Wharf');
    expect(journeyDestination({ dropoff: null, hourly_duration: '6hour' })).toBe('Hourly, 6 hours');
    expect(journeyDestination({ dropoff: null, hourly_duration: null })).toBe('');
  });

  it("gives a field's value, the invoice or whether it is still to be invoiced", () => {
    expect(journeyField(JOURNEY, 'PO number')).toBe('PO-4471');
    expect(journeyField(JOURNEY, 'Cost centre')).toBe('');
    expect(journeyInvoice(JOURNEY)).toBe('INV-000012');
    expect(journeyInvoice({ invoice: null, payment_method: 'account' })).toBe('Not yet invoiced');
    expect(journeyInvoice({ invoice: null, payment_method: 'card' })).toBe('');
  });

  it("lists the account's field columns, then any an older journey still has, each once", () => {
    expect(fieldColumns({
      fields: ['PO number', 'Cost centre'],
      journeys: [JOURNEY, { ...JOURNEY, fields: [{ label: 'Project', value: 'X' }, { label: 'PO number', value: 'PO-1' }] }],
    })).toEqual(['PO number', 'Cost centre', 'Project']);
    expect(fieldColumns({ fields: [], journeys: [] })).toEqual([]);
  });

  it('lists each invoice and each note under it as a document, and names a note by its kind', () => {
    expect(listedDocuments({ account: { name: 'N' }, invoices: [INVOICE as never, { ...INVOICE, label: 'INV-000011', notes: [] } as never] }))
      .toEqual(['INV-000012', 'CN-000003', 'INV-000011']);
    expect(noteTitle({ kind: 'credit' })).toBe('Credit note');
    expect(noteTitle({ kind: 'debit' })).toBe('Debit note');
  });
});
