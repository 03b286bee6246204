// The console's Accounts page (issue 44 §1, decision 62; the rules are src/domain/accounts.ts): the corporate accounts
// on record (a company's staff see their own company's, as the server answers), one account with its form, its booking
// fields and its bookers, and a new account's form. A page of the console run as its child machine (./consolePage.ts)
// on /operator/accounts; the address says what it shows: the list, one account (?id=12) or a new one (?new=1). The
// forms' rules are asked before anything is sent; the server's refusal of a field shows on that field of the form
// that was sent, with what was typed kept. Every change loads the accounts again, the server's words shown.
import { assign, sendParent, setup } from 'xstate';
import { accountErrors, fieldErrors, type AccountInput, type AccountStatus, type FieldInput } from '../src/domain/accounts';
import { emailProblem } from '../src/domain/fields';
import { mayRefund } from '../src/domain/operatorDesk';
import { locationOfScreen } from '../src/domain/screens';
import { provided } from './shared';
import { asCallError, isSessionEnd, pageAt, SESSION_ENDED_EVENT, SESSION_ENDED_HERE, type ConsolePageInput } from './consolePage';
import type { CallError } from './operatorTypes';

/** An account as GET /operator/accounts lists it: the record, its fields and bookers, and what it owes and has booked. */
export interface AccountRow {
  id: number; name: string; address: string; billing_email: string; vat_number: string; terms_days: number;
  /** The limit, and what it owes and has booked (unpaid invoices, journeys not yet invoiced), in pounds. */
  credit_limit: string; exposure: string;
  status: AccountStatus; status_reason: string; company_id: number | null; company_name: string | null;
  fields: { id: number; label: string; required: boolean; options: string[]; active: boolean }[];
  bookers: { id: number; name: string; email: string }[];
}
export interface AccountsAnswer { accounts: AccountRow[]; companies: { id: number; company_name: string }[]; may_bill: boolean }

/** What the page sent last (kept through a refusal, which shows on that form's fields). */
export type AccountsSent =
  | { form: 'account'; values: AccountInput }
  | { form: 'field'; id: number | null; values: FieldInput }
  | { form: 'booker'; email: string; join: boolean };

export interface AccountsContext {
  /** The account open (?id=), or null; a new account's form (?new=1). */
  id: number | null;
  creating: boolean;
  answer: AccountsAnswer | null;
  /** The office (administrators and dispatchers) chooses the company that looks after an account; a company's staff keep their own. */
  office: boolean;
  sent: AccountsSent | null;
  /** The sent form's own rules' messages, or the server's refusal of one of its fields, by field. */
  fieldErrors: Record<string, string>;
  error: CallError | null;
  notice: string | null;
}

export type AccountsEvent =
  | { type: 'accounts.open'; id: number }
  | { type: 'accounts.new' }
  | { type: 'accounts.back' }
  | { type: 'account.save'; form: AccountInput }
  | { type: 'field.save'; id: number | null; form: FieldInput }
  | { type: 'booker.add'; email: string }
  | { type: 'booker.remove'; email: string }
  | { type: 'retry' };

export const ACCOUNTS_NOTICES = { notFound: 'No such account on your record: here are the accounts you can see.' } as const;

const problemsOf = (errors: Record<string, string | undefined>) => Object.fromEntries(Object.entries(errors).filter((x): x is [string, string] => Boolean(x[1])));
/** What an event would send, and its form's own rules' messages (none: it may be sent). */
function sending(event: AccountsEvent): { sent: AccountsSent; problems: Record<string, string> } | null {
  if (event.type === 'account.save') return { sent: { form: 'account', values: event.form }, problems: problemsOf(accountErrors(event.form)) };
  if (event.type === 'field.save') return { sent: { form: 'field', id: event.id, values: event.form }, problems: problemsOf(fieldErrors(event.form)) };
  if (event.type === 'booker.add') {
    const problem = emailProblem(event.email);
    return { sent: { form: 'booker', email: event.email.trim(), join: true }, problems: problem ? { email: problem } : {} };
  }
  if (event.type === 'booker.remove') return { sent: { form: 'booker', email: event.email, join: false }, problems: {} };
  return null;
}
/** A refusal as the page shows it: a 422 naming a field under that field of the form sent, any other above it. */
const refusalOf = (e: unknown) => {
  const error = asCallError(e);
  return error.field && error.status === 422 ? { fieldErrors: { [error.field]: error.message }, error: null } : { fieldErrors: {}, error };
};
/** Saved: the server's words (and the accounts are loaded again). */
const SAVED = { type: 'setSaved', params: ({ event }: { event: { output: { done: string } } }) => ({ done: event.output.done }) } as const;

export const accountsMachine = setup({
  types: {
    context: {} as AccountsContext,
    events: {} as AccountsEvent,
    input: {} as ConsolePageInput,
  },
  actors: {
    /** GET /operator/accounts: the accounts the member of staff may see, the companies, may_bill. */
    loadAccounts: provided<AccountsAnswer>('loadAccounts'),
    /** POST /operator/accounts without an id: the new account's id. */
    addAccount: provided<{ done: string; id: number }, { form: AccountInput }>('addAccount'),
    saveAccount: provided<{ done: string; id: number }, { id: number; form: AccountInput }>('saveAccount'),
    /** POST /operator/accounts/{id}/fields: a field added (id null) or changed. */
    saveField: provided<{ done: string }, { accountId: number; id: number | null; form: FieldInput }>('saveField'),
    /** POST /operator/accounts/{id}/bookers: a passenger with a sign-in joins (or leaves) the account. */
    setBooker: provided<{ done: string }, { accountId: number; email: string; join: boolean }>('setBooker'),
  },
  actions: {
    tellSessionEnded: sendParent(SESSION_ENDED_EVENT),
    tellList: sendParent(() => pageAt(locationOfScreen('operatorAccounts'))),
    tellAccount: sendParent(({ context }: { context: AccountsContext }) => pageAt(locationOfScreen('operatorAccounts', `?id=${context.id}`))),
    tellNew: sendParent(() => pageAt(locationOfScreen('operatorAccounts', '?new=1'))),
    clearMessages: assign({ sent: null, fieldErrors: {}, error: null, notice: null }),
    /** What is sent (or refused by the form's rules: its messages, and nothing sent). */
    setSent: assign(({ event }) => {
      const s = sending(event);
      return { sent: s?.sent ?? null, fieldErrors: s?.problems ?? {}, error: null, notice: null };
    }),
    setError: assign((_, { error }: { error: unknown }) => ({ ...refusalOf(error), notice: null })),
    setSaved: assign((_, { done }: { done: string }) => ({ notice: done, sent: null })),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    /** The account the address asks for is one the member of staff may see (the server's list). */
    found: ({ context }) => context.id !== null && Boolean(context.answer?.accounts.some((a) => a.id === context.id)),
    notFound: ({ context }) => context.id !== null,
    creating: ({ context }) => context.creating,
    /** The form's own rules (the server's too) find nothing wrong with what the event would send. */
    sendable: ({ event }) => {
      const s = sending(event);
      return s !== null && Object.keys(s.problems).length === 0;
    },
  },
}).createMachine({
  id: 'accounts',
  context: ({ input }) => {
    const p = new URLSearchParams(input.location.search);
    const id = /^\d{1,9}$/.test(p.get('id') ?? '') ? Number(p.get('id')) : null;
    return {
      id, creating: id === null && p.get('new') === '1', answer: null, office: mayRefund(input.staff.role),
      sent: null, fieldErrors: {}, error: null, notice: null,
    };
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadAccounts',
        onDone: { target: 'routing', actions: assign({ answer: ({ event }) => event.output }) },
        onError: [SESSION_ENDED_HERE, { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
      },
    },
    failed: { on: { retry: { target: 'loading', actions: 'clearMessages' } } },
    // Where the address (or the change just saved) leads, once the accounts are known.
    routing: {
      always: [
        { guard: 'found', target: 'account' },
        { guard: 'notFound', target: 'list', actions: [assign({ id: null, error: { message: ACCOUNTS_NOTICES.notFound, status: 404 } }), 'tellList'] },
        { guard: 'creating', target: 'creating' },
        { target: 'list' },
      ],
    },
    list: {
      on: {
        'accounts.open': { target: 'account', actions: [assign({ id: ({ event }) => event.id }), 'clearMessages', 'tellAccount'] },
        'accounts.new': { target: 'creating', actions: [assign({ creating: true }), 'clearMessages', 'tellNew'] },
      },
    },
    account: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            // Back to the list (never while a change is on its way: its answer is waited for).
            'accounts.back': { target: '#accounts.list', actions: [assign({ id: null }), 'clearMessages', 'tellList'] },
            'account.save': [{ guard: 'sendable', target: 'savingAccount', actions: 'setSent' }, { actions: 'setSent' }],
            'field.save': [{ guard: 'sendable', target: 'savingField', actions: 'setSent' }, { actions: 'setSent' }],
            'booker.add': [{ guard: 'sendable', target: 'savingBooker', actions: 'setSent' }, { actions: 'setSent' }],
            'booker.remove': { target: 'savingBooker', actions: 'setSent' },
          },
        },
        savingAccount: {
          tags: 'busy',
          invoke: {
            src: 'saveAccount',
            input: ({ context }) => ({ id: context.id!, form: (context.sent as Extract<AccountsSent, { form: 'account' }>).values }),
            onDone: { target: '#accounts.loading', actions: SAVED },
            onError: [SESSION_ENDED_HERE, { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        savingField: {
          tags: 'busy',
          invoke: {
            src: 'saveField',
            input: ({ context }) => {
              const sent = context.sent as Extract<AccountsSent, { form: 'field' }>;
              return { accountId: context.id!, id: sent.id, form: sent.values };
            },
            onDone: { target: '#accounts.loading', actions: SAVED },
            onError: [SESSION_ENDED_HERE, { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        savingBooker: {
          tags: 'busy',
          invoke: {
            src: 'setBooker',
            input: ({ context }) => {
              const sent = context.sent as Extract<AccountsSent, { form: 'booker' }>;
              return { accountId: context.id!, email: sent.email, join: sent.join };
            },
            onDone: { target: '#accounts.loading', actions: SAVED },
            onError: [SESSION_ENDED_HERE, { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
      },
    },
    creating: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'accounts.back': { target: '#accounts.list', actions: [assign({ creating: false }), 'clearMessages', 'tellList'] },
            'account.save': [{ guard: 'sendable', target: 'sending', actions: 'setSent' }, { actions: 'setSent' }],
          },
        },
        sending: {
          tags: 'busy',
          invoke: {
            src: 'addAccount',
            input: ({ context }) => ({ form: (context.sent as Extract<AccountsSent, { form: 'account' }>).values }),
            // The new account's own page, once the accounts are loaded again.
            onDone: {
              target: '#accounts.loading',
              actions: [assign({ id: ({ event }) => event.output.id, creating: false }), SAVED, 'tellAccount'],
            },
            onError: [SESSION_ENDED_HERE, { target: 'editing', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
      },
    },
  },
});
