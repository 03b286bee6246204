// The corporate area's Invoices (issue 44 §3): the booker's company account's monthly invoices, each with the credit and
// debit notes carried onto it or issued against it, and each of them downloadable as a PDF. A booker whose sign-in
// belongs to no company account is told that invoices are for company accounts. A page run as a child machine of the
// account's (./account.ts, ./accountPage.ts): started with the session, it ends only when a call is answered 401.
import { assign, setup } from 'xstate';
import { listedDocuments, type InvoicesAnswer } from '../src/domain/expenses';
import { failure, provided } from './shared';
import { isSessionEnd, pageError, SESSION_ENDED_OUTPUT, type PageError } from './accountPage';
import type { AccountPageInput, AccountPageOutput, Session } from './account';

export interface InvoicesContext {
  session: Session;
  answer: InvoicesAnswer | null;
  /** The document being downloaded (INV-000012, CN-000003...). */
  document: string | null;
  error: PageError | null;
  notice: string | null;
}

export type InvoicesEvent =
  | { type: 'invoices.download'; document: string }
  | { type: 'invoices.retry' };

export const INVOICES_NOTICES = { downloaded: (document: string) => `${document} has been downloaded.` } as const;

export const invoicesMachine = setup({
  types: {
    context: {} as InvoicesContext,
    events: {} as InvoicesEvent,
    input: {} as AccountPageInput,
    output: {} as AccountPageOutput,
  },
  actors: {
    /** GET /account/invoices: the booker's company account (or none) and its invoices. */
    fetchInvoices: provided<InvoicesAnswer, { session: Session }>('fetchInvoices'),
    /** GET /account/invoices/{document}: the invoice's or note's PDF, saved as a file. */
    downloadDocument: provided<void, { session: Session; document: string }>('downloadDocument'),
  },
  actions: {
    setError: assign((_, { error }: { error: unknown }) => ({ error: pageError(error), notice: null, document: null })),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    /** One of the documents the list shows (the server finds only the account's own anyway). */
    listed: ({ context }, document: string) => context.answer !== null && listedDocuments(context.answer).includes(document),
  },
}).createMachine({
  id: 'accountInvoices',
  context: ({ input }) => ({ session: input.session, answer: null, document: null, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchInvoices',
        input: ({ context }) => ({ session: context.session }),
        onDone: { target: 'ready', actions: assign({ answer: ({ event }) => event.output }) },
        onError: [
          { guard: { type: 'sessionEnded', params: failure }, target: 'ended' },
          { target: 'failed', actions: { type: 'setError', params: failure } },
        ],
      },
    },
    ready: {
      on: {
        'invoices.download': {
          guard: { type: 'listed', params: ({ event }) => event.document },
          target: 'downloading',
          actions: assign({ document: ({ event }) => event.document, error: null, notice: null }),
        },
      },
    },
    downloading: {
      invoke: {
        src: 'downloadDocument',
        input: ({ context }) => ({ session: context.session, document: context.document! }),
        onDone: { target: 'ready', actions: assign({ notice: ({ context }) => INVOICES_NOTICES.downloaded(context.document!), document: null }) },
        onError: [
          { guard: { type: 'sessionEnded', params: failure }, target: 'ended' },
          { target: 'ready', actions: { type: 'setError', params: failure } },
        ],
      },
    },
    // The invoices could not be loaded: the message, and Try again.
    failed: {
      on: { 'invoices.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    // A call was answered 401: the account signs the booker out, to come back here after signing in.
    ended: { type: 'final' },
  },
  output: SESSION_ENDED_OUTPUT,
});
