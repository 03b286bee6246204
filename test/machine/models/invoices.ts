// The model of machines/operatorInvoices.ts (issue 44 §3, the console's Invoices page) that paths are generated from
// (test/machine/modelPaths.ts): the events a test may send, the addresses it starts from, and the facts each state
// keeps, worked out from the events of the path. The page runs as the console's child: what it tells the console (the
// account it shows, a 401) is part of each step.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { INVOICES_NOTICES, invoicesMachine, type InvoiceRow, type InvoicesAnswer, type InvoicesContext, type InvoicesEvent } from '../../../machines/operatorInvoices';
import type { ConsolePageInput } from '../../../machines/consolePage';
import { issueMonth, paidOnProblem } from '../../../src/domain/invoiceDesk';
import { MESSAGES } from '../../../src/domain/operatorDesk';
import { ukToday } from '../../../src/domain/ukTime';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { companyDesk, staff } from './operator';

export type Snapshot = SnapshotFrom<typeof invoicesMachine>;

export const list = answers(invoicesMachine, 'loadInvoices');
export const pdf = answers(invoicesMachine, 'downloadInvoice');
export const mark = answers(invoicesMachine, 'markInvoicePaid');
export const issue = answers(invoicesMachine, 'issueInvoices');

export const ACCOUNT = 7;
const row = (number: number, paid_on: string | null): InvoiceRow => ({
  number, label: `INV-0000${number}`, account_id: ACCOUNT, account_name: 'Northbridge Consulting', month: 'May 2030', period_start: '2030-05-01',
  issued_on: '2030-06-01', due_on: '2030-07-01', paid_on, paid_by: paid_on ? 'Priya Shah' : null, status: paid_on ? 'paid' : 'due',
  status_label: paid_on ? 'Paid' : 'Due', journeys: 2, gross: '152.40', amount_due: '152.40', notes: [],
});
export const UNPAID = row(12, null);
export const PAID = row(13, '2030-06-20');
/** As the office is answered (it may bill), and as a company's staff are (they may not). */
export const OFFICE: InvoicesAnswer = { invoices: [UNPAID, PAID], last_month: '2030-05', may_bill: true, accounts: [{ id: ACCOUNT, name: 'Northbridge Consulting' }] };
export const THEIRS: InvoicesAnswer = { ...OFFICE, may_bill: false };
/** A day paid that has been, and one to come (the domain's rule, unit-tested, compares them with today's). */
export const PAST = '2020-06-20';
export const FUTURE = '2099-01-01';

const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const sessionEnded = refusal(MESSAGES.sessionEnded, { status: 401 });
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
const noAccount = refusal('No such account on your record.', { status: 404 });
const notOver = refusal('A month is invoiced once it is over: choose an earlier month.', { status: 422, field: 'month' });
const notBefore = refusal('The day it was paid cannot be in the future.', { status: 422, field: 'paid_on' });
const officeOnly = refusal("Only the office's administrators and dispatchers can do this.", { status: 403 });

export const EVENTS: ModelEvent<InvoicesEvent>[] = [
  list.done(OFFICE), list.done(THEIRS), list.fails(sessionEnded), list.fails(down), list.fails(noAccount),
  pdf.done(), pdf.fails(sessionEnded), pdf.fails(down),
  mark.done({ done: `INV-000012 marked paid on ${PAST}.` }), mark.fails(sessionEnded), mark.fails(notBefore), mark.fails(officeOnly),
  issue.done({ done: '1 invoice(s) issued and e-mailed.', issued: [14] }), issue.fails(sessionEnded), issue.fails(notOver), issue.fails(down),
  { type: 'invoices.show', account: ACCOUNT },
  { type: 'invoices.show', account: null },
  { type: 'invoices.download', document: 'INV-000012' },
  { type: 'invoices.pay', number: UNPAID.number },
  { type: 'invoices.pay', number: PAID.number },
  { type: 'invoices.paid', paid_on: ` ${PAST} ` },
  { type: 'invoices.paid', paid_on: FUTURE },
  { type: 'invoices.cancel' },
  { type: 'invoices.unpay', number: PAID.number },
  { type: 'invoices.unpay', number: UNPAID.number },
  { type: 'invoices.issue', month: '2020-05', account: null },
  { type: 'invoices.issue', month: '2099-01', account: ACCOUNT },
  { type: 'retry' },
];

/** The addresses a test opens the page at, and who is signed in. */
const ADDRESSES: { name: string; search: string; as?: typeof companyDesk; account: number | null }[] = [
  { name: 'the Invoices link', search: '', account: null },
  { name: "an account's invoices", search: `?account=${ACCOUNT}`, account: ACCOUNT },
  { name: "a company's staff on the Invoices link", search: '', as: companyDesk, account: null },
  // An address no link makes: an account the page cannot read is left out.
  { name: 'an account with letters', search: `?account=${ACCOUNT}x`, account: null },
];
const MAIN_INPUTS = 2;
export const INPUTS: Record<string, ConsolePageInput> = Object.fromEntries(ADDRESSES.map((a) => [a.name, { location: { path: '/operator/invoices', search: a.search }, staff: a.as ?? staff }]));
const addressOf = (input: ConsolePageInput) => ADDRESSES.find((a) => a.search === input.location.search && (a.as ?? staff) === input.staff)!;

type Answer = { type: string; output?: { done?: string } & Partial<InvoicesAnswer>; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
const failure = (e: ModelEvent | undefined) => (/^xstate\.error\.actor\./.test(e?.type ?? '') ? (e as Answer).error! : null);
type Said = Pick<InvoicesContext, 'error' | 'notice' | 'fieldErrors'>;
const CLEARED: Said = { error: null, notice: null, fieldErrors: {} };
const saidIn = (c: InvoicesContext): Said => ({ error: c.error, notice: c.notice, fieldErrors: c.fieldErrors });
function refusalShown(error: NonNullable<Answer['error']>): Said {
  if (error.field && error.status === 422) return { error: null, notice: null, fieldErrors: { [error.field]: error.message } };
  return { error: { message: error.message, ...(error.field ? { field: error.field } : {}), ...(error.status ? { status: error.status } : {}) }, notice: null, fieldErrors: {} };
}

/** The account shown, the answer last loaded, the invoice being marked paid and what was sent, by the path's events. */
function given(trail: Trail<Snapshot>, input: ConsolePageInput) {
  let account = addressOf(input).account;
  let answer: InvoicesAnswer | null = null;
  let paying: number | null = null;
  let sent: InvoicesContext['sent'] = null;
  for (const [i, { event: e }] of trail.entries()) {
    const state = trail[i].state;
    if (e.type === 'invoices.show') [account, paying, sent] = [e.account, null, null];
    if (is(e, list.done())) answer = (e as Answer).output as InvoicesAnswer;
    if (e.type === 'invoices.pay' && state.matches('paying')) [paying, sent] = [e.number, null];
    if (e.type === 'invoices.cancel' || e.type === 'retry') [paying, sent] = [e.type === 'retry' ? paying : null, null];
    if (e.type === 'invoices.paid') sent = { number: paying!, paid_on: e.paid_on.trim() };
    if (e.type === 'invoices.unpay' && state.matches('marking')) sent = { number: e.number, paid_on: null };
    if (e.type === 'invoices.issue' && (state.matches('issuing') || Object.keys(state.context.fieldErrors).length)) sent = { month: e.month.trim(), account: e.account };
    if (e.type === 'invoices.download') sent = { document: e.document };
    if (is(e, pdf.done()) || is(e, mark.done()) || is(e, issue.done())) [paying, sent] = [is(e, pdf.done()) ? paying : null, null];
  }
  return { account, answer, paying, sent };
}

const ANSWERS: Record<string, { answer: ReturnType<typeof answers>; output: unknown }> = {
  loadInvoices: { answer: list, output: OFFICE }, downloadInvoice: { answer: pdf, output: undefined },
  markInvoicePaid: { answer: mark, output: { done: 'Done.' } }, issueInvoices: { answer: issue, output: { done: 'Done.', issued: [] } },
};

export function facts(s: Snapshot, trail: Trail<Snapshot>, input: ConsolePageInput) {
  const last = trail.at(-1);
  const e = last?.event;
  const c = s.context;
  const before = trail.at(-2)?.state;
  const was = (value: string) => (before ? before.matches(value as never) : value === 'loading');
  const saidBefore = before ? saidIn(before.context) : CLEARED;
  const prior = given(trail.slice(0, -1), input);
  const want = given(trail, input);
  const mayBill = prior.answer?.may_bill === true;

  const error = failure(e);
  let value: unknown;
  let said: Said;
  let told: unknown[] = [];
  if (!e) [value, said] = ['loading', CLEARED];
  else if (error?.status === 401) [value, said, told] = [before?.value ?? 'loading', saidBefore, [{ type: 'page.sessionEnded' }]];
  else if (error) {
    said = refusalShown(error);
    // A load that failed: Try again. A day paid refused: back in its window; anything else: the list, saying why.
    value = is(e, list.fails(null)) ? 'failed' : is(e, mark.fails(null)) && prior.paying !== null ? 'paying' : 'ready';
  } else if (is(e, list.done())) {
    [value, said] = ['ready', saidBefore];
    expect(c.answer, 'the invoices answered').toEqual((e as Answer).output);
  } else if (e.type === 'invoices.show') {
    const search = e.account === null ? '' : `?account=${e.account}`;
    [value, said, told] = ['loading', CLEARED, [{ type: 'page.location', location: { path: '/operator/invoices', search } }]];
  } else if (e.type === 'retry') [value, said] = ['loading', CLEARED];
  else if (e.type === 'invoices.download') [value, said] = ['downloading', CLEARED];
  else if (e.type === 'invoices.pay') {
    // Only the office, and only an invoice not paid yet, has its window.
    expect(mayBill && prior.answer!.invoices.find((i) => i.number === e.number)?.paid_on === null, 'Mark paid: the office, an unpaid invoice').toBe(true);
    [value, said] = ['paying', CLEARED];
  } else if (e.type === 'invoices.unpay') {
    expect(mayBill && Boolean(prior.answer!.invoices.find((i) => i.number === e.number)?.paid_on), 'Mark unpaid: the office, a paid invoice').toBe(true);
    [value, said] = ['marking', CLEARED];
  } else if (e.type === 'invoices.cancel') [value, said] = ['ready', CLEARED];
  else if (e.type === 'invoices.paid') {
    const problem = paidOnProblem(e.paid_on, ukToday());
    [value, said] = problem ? ['paying', { ...CLEARED, fieldErrors: { paid_on: problem } }] : ['marking', CLEARED];
  } else if (e.type === 'invoices.issue') {
    expect(mayBill, 'Issue invoices now: the office').toBe(true);
    const month = issueMonth(e.month, ukToday());
    [value, said] = 'problem' in month ? ['ready', { ...CLEARED, fieldErrors: { month: month.problem } }] : ['issuing', CLEARED];
  } else if (is(e, pdf.done())) {
    [value, said] = ['ready', { ...CLEARED, notice: INVOICES_NOTICES.downloaded((prior.sent as { document: string }).document) }];
  } else if (is(e, mark.done()) || is(e, issue.done())) [value, said] = ['loading', { ...CLEARED, notice: (e as Answer).output!.done! }];
  else throw new Error(`no fact for ${e.type}`);
  const where = e ? `after ${e.type}` : 'on opening';
  expect(s.value, `${where}: the state`).toEqual(value);
  expect(saidIn(c), `${where}: what the page says`).toEqual(said);
  if (last) expect(last.effects.toParent, `${where}: what the console is told`).toEqual(told);
  if (error?.status === 401) return;

  expect([c.account, c.paying, c.sent], 'the account shown, the invoice being marked paid, what was sent').toEqual([want.account, want.paying, want.sent]);
  // Each call asks for exactly what the person gave, and the state waits for no other.
  const calls: Record<string, unknown> = {};
  if (s.matches('loading')) calls.loadInvoices = { account: want.account };
  if (s.matches('downloading')) calls.downloadInvoice = want.sent;
  if (s.matches('marking')) calls.markInvoicePaid = want.sent;
  if (s.matches('issuing')) calls.issueInvoices = want.sent;
  const open = callsOpen(s);
  expect(open, 'the calls open, with what they ask').toEqual(calls);
  for (const src of Object.keys(open)) {
    const { answer, output } = ANSWERS[src];
    for (const a of [answer.done(output), answer.fails(down), answer.fails(sessionEnded)]) expect(s.can(a as never), `${src}: ${a.type} is heard`).toBe(true);
  }
  // The money is the office's: a company's staff (may_bill false) are offered neither Mark paid nor issuing.
  if (c.answer && !c.answer.may_bill) {
    expect(s.can({ type: 'invoices.pay', number: UNPAID.number }), 'no Mark paid').toBe(false);
    expect(s.can({ type: 'invoices.unpay', number: PAID.number }), 'no Mark unpaid').toBe(false);
    expect(s.can({ type: 'invoices.issue', month: '2020-05', account: null }), 'no issuing').toBe(false);
  }
  // Nothing is sent twice: while a call is on its way, no other is started and the account shown stays.
  if (s.hasTag('busy')) {
    for (const ev of [{ type: 'invoices.download', document: 'INV-000012' }, { type: 'invoices.issue', month: '2020-05', account: null }, { type: 'invoices.show', account: null }, { type: 'invoices.paid', paid_on: PAST }] as const) {
      expect(s.can(ev), `${ev.type} waits for the call on its way`).toBe(false);
    }
  }
  if (was('loading') && is(e, list.fails(null)) && error?.status !== 401) expect(c.answer).toEqual(prior.answer);
}

/** What the page offers: the account to show, each PDF, and for the office Mark paid (unpaid), issuing; the window's buttons. */
export const offers = (s: Snapshot): ModelEvent<InvoicesEvent>[] => {
  if (s.matches('failed')) return [{ type: 'retry' }, { type: 'invoices.show', account: null }];
  if (s.matches('paying')) return [{ type: 'invoices.paid', paid_on: PAST }, { type: 'invoices.cancel' }];
  if (!s.matches('ready')) return [];
  const out: ModelEvent<InvoicesEvent>[] = [{ type: 'invoices.show', account: ACCOUNT }, { type: 'invoices.download', document: 'INV-000012' }];
  if (s.context.answer?.may_bill) {
    for (const i of s.context.answer.invoices) out.push(i.paid_on ? { type: 'invoices.unpay', number: i.number } : { type: 'invoices.pay', number: i.number });
    out.push({ type: 'invoices.issue', month: '2020-05', account: null });
  }
  return out;
};

export const model: Model<typeof invoicesMachine> = {
  name: 'invoices page machine',
  machine: invoicesMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([
    s.value, s.context.account, s.context.answer?.may_bill ?? null, s.context.paying, s.context.sent, Object.keys(s.context.fieldErrors),
    s.context.error?.status ?? null, s.context.error !== null, s.context.notice !== null,
  ]),
  facts,
  factsTitle: "issue 44's invoices: the account shown, the office's Mark paid and issuing, the forms' rules",
  offers,
  deciding: ['downloadInvoice', 'markInvoicePaid', 'issueInvoices'],
  services: ['loadInvoices', 'downloadInvoice', 'markInvoicePaid', 'issueInvoices'],
  describeState: (s) => String(s.value),
  depth: (_, i) => (i < MAIN_INPUTS ? 5 : 3),
};
