// The console's Invoices page (issue 44 §3, decision 62; the rules are src/domain/invoiceDesk.ts): the accounts'
// monthly invoices (issued, due, overdue, paid), all of them or one account's (/operator/invoices?account=12), each
// invoice and note downloadable as its PDF. The office (the server says `may_bill`: administrators and dispatchers)
// marks an invoice paid with the day it was paid (or unpaid again), and issues a month's invoices now, for every
// account or one. A page of the console run as its child machine (./consolePage.ts): it tells the console the account
// it shows. The forms' rules are asked before anything is sent; the server's refusal of a field shows on that field.
import { assign, sendParent, setup } from 'xstate';
import type { InvoiceStatus } from '../src/domain/accounts';
import { issueMonth, paidOnProblem } from '../src/domain/invoiceDesk';
import { locationOfScreen } from '../src/domain/screens';
import { ukToday } from '../src/domain/ukTime';
import { provided } from './shared';
import { asCallError, isSessionEnd, pageAt, SESSION_ENDED_EVENT, SESSION_ENDED_HERE, type ConsolePageInput } from './consolePage';
import type { CallError } from './operatorTypes';

/** An account's invoice as GET /operator/invoices lists it (amounts in pounds; dates as UK dates). */
export interface InvoiceRow {
  number: number; label: string; account_id: number; account_name: string; month: string; period_start: string;
  issued_on: string; due_on: string; paid_on: string | null; paid_by: string | null; status: InvoiceStatus; status_label: string;
  journeys: number; gross: string; amount_due: string;
  /** The credit and debit notes on it: carried onto it from an earlier invoice, or issued against it. */
  notes: { label: string; kind: 'credit' | 'debit'; invoice: string; booking_number: string; amount: string; carried: boolean }[];
}
/** The page's answer: the invoices, the month before today's, whether the office may bill, and the accounts to choose. */
export interface InvoicesAnswer {
  invoices: InvoiceRow[]; last_month: string; may_bill: boolean; accounts: { id: number; name: string }[];
}

export interface InvoicesContext {
  /** The account whose invoices are shown (?account=), or null for every account's. */
  account: number | null;
  answer: InvoicesAnswer | null;
  /** The invoice whose "Mark paid" window is open. */
  paying: number | null;
  /** What was sent last (kept through a refusal): a day paid (null: unpaid again), a month to issue, a PDF asked for. */
  sent: { number: number; paid_on: string | null } | { month: string; account: number | null } | { document: string } | null;
  fieldErrors: Record<string, string>;
  error: CallError | null;
  notice: string | null;
}

export type InvoicesEvent =
  | { type: 'invoices.show'; account: number | null }
  | { type: 'invoices.download'; document: string }
  | { type: 'invoices.pay'; number: number }
  | { type: 'invoices.paid'; paid_on: string }
  | { type: 'invoices.cancel' }
  | { type: 'invoices.unpay'; number: number }
  | { type: 'invoices.issue'; month: string; account: number | null }
  | { type: 'retry' };

export const INVOICES_NOTICES = { downloaded: (document: string) => `${document} has been downloaded.` } as const;

const accountOf = (search: string) => {
  const typed = new URLSearchParams(search).get('account') ?? '';
  return /^\d{1,9}$/.test(typed) ? Number(typed) : null;
};
/** A refusal as the page shows it: a 422 naming a field under that field, any other above the page. */
const refusalOf = (e: unknown) => {
  const error = asCallError(e);
  return error.field && error.status === 422 ? { fieldErrors: { [error.field]: error.message }, error: null } : { fieldErrors: {}, error };
};
const invoiceOf = (c: InvoicesContext, number: number) => c.answer?.invoices.find((i) => i.number === number);
const FAILED = { type: 'setError', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } as const;
/** Another account's invoices (or every account's): loaded, and the address says which. */
const SHOW = { target: 'loading', actions: [{ type: 'setAccount', params: ({ event }: { event: { account: number | null } }) => event }, 'clearMessages', 'tellAccount'] } as const;
/** Done: the server's words, and the invoices loaded again. */
const DONE = { type: 'setDone', params: ({ event }: { event: { output: { done: string } } }) => ({ done: event.output.done }) } as const;

export const invoicesMachine = setup({
  types: {
    context: {} as InvoicesContext,
    events: {} as InvoicesEvent,
    input: {} as ConsolePageInput,
  },
  actors: {
    /** GET /operator/invoices (?account=) with GET /operator/accounts' names. */
    loadInvoices: provided<InvoicesAnswer, { account: number | null }>('loadInvoices'),
    /** GET /operator/invoices/{INV-000012 | CN-000003 | DN-000001}, saved as a PDF file. */
    downloadInvoice: provided<void, { document: string }>('downloadInvoice'),
    /** POST /operator/invoices/{number}/paid: the day paid, or null (unpaid again). */
    markInvoicePaid: provided<{ done: string }, { number: number; paid_on: string | null }>('markInvoicePaid'),
    /** POST /operator/invoices/run: a month's invoices, for every account or one. */
    issueInvoices: provided<{ done: string; issued: number[] }, { month: string; account: number | null }>('issueInvoices'),
  },
  actions: {
    tellSessionEnded: sendParent(SESSION_ENDED_EVENT),
    tellAccount: sendParent(({ context }: { context: InvoicesContext }) =>
      pageAt(locationOfScreen('operatorInvoices', context.account === null ? '' : `?account=${context.account}`))),
    clearMessages: assign({ sent: null, fieldErrors: {}, error: null, notice: null }),
    setAccount: assign((_, { account }: { account: number | null }) => ({ account })),
    setError: assign((_, { error }: { error: unknown }) => ({ ...refusalOf(error), notice: null })),
    setDone: assign((_, { done }: { done: string }) => ({ notice: done, sent: null, paying: null })),
    /** What a form sends, or its own rules' message on its field (and nothing sent). */
    setSent: assign(({ context, event }): Partial<InvoicesContext> => {
      if (event.type === 'invoices.paid') {
        const problem = paidOnProblem(event.paid_on, ukToday());
        return { sent: { number: context.paying!, paid_on: event.paid_on.trim() }, fieldErrors: problem ? { paid_on: problem } : {} as Record<string, string>, error: null, notice: null };
      }
      if (event.type === 'invoices.unpay') return { sent: { number: event.number, paid_on: null }, fieldErrors: {}, error: null, notice: null };
      if (event.type === 'invoices.issue') {
        const month = issueMonth(event.month, ukToday());
        return { sent: { month: event.month.trim(), account: event.account }, fieldErrors: 'problem' in month ? { month: month.problem } : {} as Record<string, string>, error: null, notice: null };
      }
      return {};
    }),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    /** The office's own (the server's may_bill): marking paid and issuing. */
    mayBill: ({ context }) => context.answer?.may_bill === true,
    unpaid: ({ context, event }) => context.answer?.may_bill === true && event.type === 'invoices.pay' && invoiceOf(context, event.number)?.paid_on === null,
    paid: ({ context, event }) => context.answer?.may_bill === true && event.type === 'invoices.unpay' && Boolean(invoiceOf(context, event.number)?.paid_on),
    paidOnSendable: ({ event }) => event.type === 'invoices.paid' && paidOnProblem(event.paid_on, ukToday()) === null,
    monthSendable: ({ context, event }) => context.answer?.may_bill === true && event.type === 'invoices.issue' && !('problem' in issueMonth(event.month, ukToday())),
  },
}).createMachine({
  id: 'invoices',
  context: ({ input }) => ({ account: accountOf(input.location.search), answer: null, paying: null, sent: null, fieldErrors: {}, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadInvoices',
        input: ({ context }) => ({ account: context.account }),
        onDone: { target: 'ready', actions: assign({ answer: ({ event }) => event.output }) },
        onError: [SESSION_ENDED_HERE, { target: 'failed', actions: FAILED }],
      },
    },
    failed: { on: { retry: { target: 'loading', actions: 'clearMessages' }, 'invoices.show': SHOW } },
    ready: {
      on: {
        'invoices.show': SHOW,
        'invoices.download': { target: 'downloading', actions: ['clearMessages', assign({ sent: ({ event }) => ({ document: event.document }) })] },
        'invoices.pay': { guard: 'unpaid', target: 'paying', actions: ['clearMessages', assign({ paying: ({ event }) => event.number })] },
        'invoices.unpay': { guard: 'paid', target: 'marking', actions: 'setSent' },
        'invoices.issue': [{ guard: 'monthSendable', target: 'issuing', actions: 'setSent' }, { guard: 'mayBill', actions: 'setSent' }],
      },
    },
    downloading: {
      tags: 'busy',
      invoke: {
        src: 'downloadInvoice',
        input: ({ context }) => context.sent as { document: string },
        onDone: { target: 'ready', actions: assign({ notice: ({ context }) => INVOICES_NOTICES.downloaded((context.sent as { document: string }).document), sent: null }) },
        onError: [SESSION_ENDED_HERE, { target: 'ready', actions: FAILED }],
      },
    },
    // "Mark paid": the window with the day it was paid (today unless changed).
    paying: {
      on: {
        'invoices.paid': [{ guard: 'paidOnSendable', target: 'marking', actions: 'setSent' }, { actions: 'setSent' }],
        'invoices.cancel': { target: 'ready', actions: [assign({ paying: null }), 'clearMessages'] },
      },
    },
    marking: {
      tags: 'busy',
      invoke: {
        src: 'markInvoicePaid',
        input: ({ context }) => context.sent as { number: number; paid_on: string | null },
        onDone: { target: 'loading', actions: DONE },
        // Refused: back in the window (a day paid) or on the list (unpaid again), with why.
        onError: [SESSION_ENDED_HERE, { guard: ({ context }) => context.paying !== null, target: 'paying', actions: FAILED }, { target: 'ready', actions: FAILED }],
      },
    },
    issuing: {
      tags: 'busy',
      invoke: {
        src: 'issueInvoices',
        input: ({ context }) => context.sent as { month: string; account: number | null },
        onDone: { target: 'loading', actions: DONE },
        onError: [SESSION_ENDED_HERE, { target: 'ready', actions: FAILED }],
      },
    },
  },
});
