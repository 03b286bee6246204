// The model of machines/accountInvoices.ts (the corporate area's Invoices, issue 44 §3) that paths are generated from
// (test/machine/modelPaths.ts): the list the server answers (an account's invoices, or no account), the documents a
// booker downloads, and the facts each state keeps, worked out from the events of the path. Replayed by
// ../accountInvoices.model.test.ts, and in Chromium by test/paths/accountInvoices.paths.test.ts.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { INVOICES_NOTICES, invoicesMachine, type InvoicesEvent } from '../../../machines/accountInvoices';
import { listedDocuments, type InvoicesAnswer } from '../../../src/domain/expenses';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { session } from '../fixtures';
import { named } from './accountJourneys';

export type Snapshot = SnapshotFrom<typeof invoicesMachine>;

export const fetchInvoices = answers(invoicesMachine, 'fetchInvoices');
export const downloadDocument = answers(invoicesMachine, 'downloadDocument');

export const INVOICE = 'INV-000012';
export const NOTE = 'CN-000003';
export const invoiced: InvoicesAnswer = named({
  account: { name: 'Northbridge Consulting' },
  invoices: [{
    number: 12, label: INVOICE, month: 'May 2030', issued_on: '2030-06-01', due_on: '2030-07-01', paid_on: null, status: 'due', status_label: 'Due',
    journeys: 2, gross: '137.00', amount_due: '137.00',
    notes: [{ label: NOTE, kind: 'credit', invoice: INVOICE, booking_number: 'BK-ABCDEFGH', amount: '68.50', carried: false }],
  }],
}, 'an invoice with a credit note');
/** A passenger whose sign-in belongs to no company account. */
export const noAccount: InvoicesAnswer = named({ account: null, invoices: [] }, 'no company account');

const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
export const down = refusal('We could not reach the booking server. Please check your connection and try again.');
export const ended = refusal('Your session has ended. Please sign in again.', { status: 401 });

const download = (document: string): InvoicesEvent => ({ type: 'invoices.download', document });
export const EVENTS: ModelEvent<InvoicesEvent>[] = [
  fetchInvoices.done(invoiced), fetchInvoices.done(noAccount), fetchInvoices.fails(down), fetchInvoices.fails(ended), { type: 'invoices.retry' },
  download(INVOICE), download(NOTE),
  // Not a document of the list (another account's, or one typed): nothing is asked.
  download('INV-000099'),
  downloadDocument.done(), downloadDocument.fails(down), downloadDocument.fails(ended),
];

type Answer = { type: string; output?: InvoicesAnswer; error?: Error & { status?: number } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;

export function spec(s: Snapshot, trail: Trail<Snapshot>) {
  const last = trail.at(-1)?.event as (ModelEvent & Answer) | undefined;
  const c = s.context;
  const lists = trail.filter((x) => is(x.event, fetchInvoices.done()));
  const list = (lists.at(-1)?.event as Answer | undefined)?.output ?? null;
  expect(c.answer).toEqual(list);
  // The invoices are asked for with the session; a download is of the document pressed, one of the list's only.
  const open = callsOpen(s);
  if (open.fetchInvoices) expect(open.fetchInvoices).toEqual({ session });
  const pressed = trail.findLast((x) => x.event.type === 'invoices.download')?.event as Extract<InvoicesEvent, { type: 'invoices.download' }> | undefined;
  if (open.downloadDocument) {
    expect(open.downloadDocument).toEqual({ session, document: pressed!.document });
    expect(listedDocuments(list!)).toContain(pressed!.document);
  }
  if (last?.type === 'invoices.download') {
    const document = (last as unknown as { document: string }).document;
    if (list && listedDocuments(list).includes(document)) expect([s.value, c.document, c.error, c.notice]).toEqual(['downloading', document, null, null]);
    else expect(s.matches('downloading')).toBe(false);
  }
  if (is(last, downloadDocument.done())) expect([s.value, c.notice, c.document]).toEqual(['ready', INVOICES_NOTICES.downloaded(pressed!.document), null]);
  // A call answered 401 ends the page: the account signs the booker out.
  if (last?.error?.status === 401) expect([s.status, s.output]).toEqual(['done', { sessionEnded: true }]);
  else expect(s.status).toBe('active');
  if (is(last, fetchInvoices.fails(null)) && last!.error!.status !== 401) expect([s.value, c.error?.message]).toEqual(['failed', last!.error!.message]);
  if (is(last, downloadDocument.fails(null)) && last!.error!.status !== 401) {
    expect([s.value, c.error?.message, c.document, c.notice]).toEqual(['ready', last!.error!.message, null, null]);
  }
  // One file at a time.
  if (s.matches('downloading')) expect(s.can(download(INVOICE))).toBe(false);
}

/** Each document's Download button under a list, Try again after a failure. */
export function offers(s: Snapshot): ModelEvent<InvoicesEvent>[] {
  if (s.matches('ready')) return s.context.answer ? listedDocuments(s.context.answer).map(download) : [];
  if (s.matches('failed')) return [{ type: 'invoices.retry' }];
  return [];
}

export const model: Model<typeof invoicesMachine> = {
  name: 'account invoices machine',
  machine: invoicesMachine,
  events: EVENTS,
  inputs: { "a booker's invoices": { session } },
  serialize: (s) => JSON.stringify([s.value, s.status, s.context.answer, s.context.document, s.context.error, s.context.notice]),
  facts: spec,
  factsTitle: "issue 44's invoices: the account's list, each listed document downloaded once at a time",
  offers,
  services: ['fetchInvoices', 'downloadDocument'],
  describeState: (s) => `${String(s.value)}${s.status === 'done' ? ' (session ended)' : ''}`,
  depth: () => 5,
};
