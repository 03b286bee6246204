// The console's Complaints and Lost property pages (issue 43 §3, decision 61; the rules are src/domain/casework.ts): one
// machine for both registers, run as the console's child (./consolePage.ts) on /operator/complaints or
// /operator/lost-property. The address says what it shows: the list (?status=closed&q=..., open entries by default),
// one entry (?id=12: its form, its history, Close with the outcome) or a new entry (?new=1). The forms' rules are asked
// before anything is sent; the server's refusal of a field shows on that field. The list downloads as a CSV. The page
// tells the console each address it moves to (opened at one, the console has it already).
import { and, assign, sendParent, setup } from 'xstate';
import {
  closeErrors, entryErrors, type CaseEntry, type CaseList, type ListStatus, type Register,
} from '../src/domain/casework';
import { locationOfScreen, screenOfPath } from '../src/domain/screens';
import { ukToday } from '../src/domain/ukTime';
import { provided } from './shared';
import { asCallError, isSessionEnd, pageAt, SESSION_ENDED_EVENT, SESSION_ENDED_HERE, type ConsolePageInput } from './consolePage';
import type { CallError } from './operatorTypes';

export type CaseForm = Record<string, string>;

export interface CaseworkContext {
  register: Register;
  status: ListStatus;
  q: string;
  /** The entry open (?id=), or null. */
  id: number | null;
  list: CaseList | null;
  entry: CaseEntry | null;
  /** The form being sent (kept through a refusal), the outcome being closed with. */
  form: CaseForm | null;
  outcome: string;
  /** The forms' own rules' messages and the server's refusal of a field, by field. */
  fieldErrors: Record<string, string>;
  error: CallError | null;
  notice: string | null;
}

export type CaseworkEvent =
  | { type: 'list.show'; status: ListStatus; q: string }
  | { type: 'entry.open'; id: number }
  | { type: 'entry.new' }
  | { type: 'entry.back' }
  | { type: 'entry.save'; form: CaseForm }
  | { type: 'entry.close'; outcome: string }
  | { type: 'csv'; from: string; to: string }
  | { type: 'retry' };

export const CASEWORK_NOTICES = {
  opened: (number: string) => `${number} is on record.`,
  saved: 'Saved.',
  closed: (emailed: string | null) => (emailed ? `Closed. The outcome has been e-mailed to ${emailed}.` : 'Closed. There is no e-mail address to send the outcome to.'),
  downloaded: 'The CSV file has been downloaded.',
} as const;

const registerOf = (path: string): Register => (screenOfPath(path) === 'operatorLostProperty' ? 'lost-property' : 'complaints');
const screenOf = (register: Register) => (register === 'complaints' ? 'operatorComplaints' : 'operatorLostProperty');
const STATUSES: ListStatus[] = ['open', 'closed', 'all'];
const searchOf = (fields: Record<string, string>) => {
  const s = new URLSearchParams(Object.entries(fields).filter(([, v]) => v !== '')).toString();
  return s ? `?${s}` : '';
};
/** A refusal as the page shows it: a field's under its input, any other above the form. */
const refusalOf = (e: unknown) => {
  const error = asCallError(e);
  return error.field && error.status === 422 ? { fieldErrors: { [error.field]: error.message }, error: null } : { fieldErrors: {}, error };
};
const firstProblems = (errors: Record<string, string | undefined>) => Object.fromEntries(Object.entries(errors).filter((x): x is [string, string] => Boolean(x[1])));

export const caseworkMachine = setup({
  types: {
    context: {} as CaseworkContext,
    events: {} as CaseworkEvent,
    input: {} as ConsolePageInput,
  },
  actors: {
    loadCasework: provided<CaseList, { register: Register; status: ListStatus; q: string }>('loadCasework'),
    loadCaseworkEntry: provided<CaseEntry, { register: Register; id: number }>('loadCaseworkEntry'),
    /** POST the office's new entry: its id and number. */
    createCaseworkEntry: provided<{ id: number; number: string }, { register: Register; form: CaseForm }>('createCaseworkEntry'),
    /** PUT an entry's form. */
    saveCaseworkEntry: provided<{ id: number; number: string }, { register: Register; id: number; form: CaseForm }>('saveCaseworkEntry'),
    closeCaseworkEntry: provided<{ number: string; emailed: string | null }, { register: Register; id: number; outcome: string }>('closeCaseworkEntry'),
    downloadCaseworkCsv: provided<void, { register: Register; from: string; to: string }>('downloadCaseworkCsv'),
  },
  actions: {
    tellSessionEnded: sendParent(SESSION_ENDED_EVENT),
    tellList: sendParent(({ context }: { context: CaseworkContext }) =>
      pageAt(locationOfScreen(screenOf(context.register), searchOf({ status: context.status === 'open' ? '' : context.status, q: context.q })))),
    tellEntry: sendParent(({ context }: { context: CaseworkContext }) => pageAt(locationOfScreen(screenOf(context.register), searchOf({ id: String(context.id) })))),
    tellNew: sendParent(({ context }: { context: CaseworkContext }) => pageAt(locationOfScreen(screenOf(context.register), '?new=1'))),
    clearMessages: assign({ error: null, notice: null, fieldErrors: {} }),
    setError: assign((_, { error }: { error: unknown }) => ({ ...refusalOf(error), notice: null })),
    /** The form's own rules' messages: nothing is sent. */
    showProblems: assign(({ context, event }) => ({
      notice: null, error: null,
      fieldErrors: event.type === 'entry.save' ? firstProblems(entryErrors(context.register, event.form, ukToday()))
        : event.type === 'entry.close' ? firstProblems(closeErrors(event)) : {},
    })),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    onEntry: ({ context }) => context.id !== null,
    onNew: ({ context }) => context.id === null && context.form !== null,
    formValid: ({ context, event }) => event.type === 'entry.save' && Object.values(entryErrors(context.register, event.form, ukToday())).every((m) => !m),
    mayEdit: ({ context }) => Boolean(context.entry?.may.edit),
    mayClose: ({ context, event }) => event.type === 'entry.close' && Boolean(context.entry?.may.close) && !closeErrors(event).outcome,
    mayCloseButNoOutcome: ({ context, event }) => event.type === 'entry.close' && Boolean(context.entry?.may.close),
    conflict: (_, { error }: { error: unknown }) => (error as CallError)?.status === 409,
  },
}).createMachine({
  id: 'casework',
  context: ({ input }) => {
    const p = new URLSearchParams(input.location.search);
    const status = p.get('status') as ListStatus;
    const id = /^\d{1,9}$/.test(p.get('id') ?? '') ? Number(p.get('id')) : null;
    return {
      register: registerOf(input.location.path), status: STATUSES.includes(status) ? status : 'open', q: (p.get('q') ?? '').slice(0, 100), id,
      list: null, entry: null, form: id === null && p.get('new') === '1' ? {} : null, outcome: '', fieldErrors: {}, error: null, notice: null,
    };
  },
  initial: 'routing',
  states: {
    routing: { always: [{ guard: 'onEntry', target: 'entry' }, { guard: 'onNew', target: 'creating' }, { target: 'list' }] },
    list: {
      entry: assign({ id: null, entry: null, form: null }),
      initial: 'loading',
      on: {
        'list.show': { target: 'list', reenter: true, actions: [assign({ status: ({ event }) => event.status, q: ({ event }) => event.q.slice(0, 100) }), 'clearMessages', 'tellList'] },
        'entry.open': { target: 'entry', actions: [assign({ id: ({ event }) => event.id }), 'clearMessages', 'tellEntry'] },
        'entry.new': { target: 'creating', actions: ['clearMessages', 'tellNew'] },
      },
      states: {
        loading: {
          invoke: {
            src: 'loadCasework',
            input: ({ context }) => ({ register: context.register, status: context.status, q: context.q }),
            onDone: { target: 'ready', actions: assign({ list: ({ event }) => event.output }) },
            onError: [SESSION_ENDED_HERE, { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        ready: { on: { csv: { target: 'downloading', actions: 'clearMessages' } } },
        downloading: {
          tags: 'busy',
          invoke: {
            src: 'downloadCaseworkCsv',
            input: ({ context, event }) => ({ register: context.register, ...(event.type === 'csv' ? { from: event.from, to: event.to } : { from: '', to: '' }) }),
            onDone: { target: 'ready', actions: assign({ notice: CASEWORK_NOTICES.downloaded }) },
            onError: [SESSION_ENDED_HERE, { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        failed: { on: { retry: { target: 'loading', actions: 'clearMessages' } } },
      },
    },
    entry: {
      initial: 'loading',
      on: { 'entry.back': { target: 'list', actions: ['clearMessages', 'tellList'] } },
      states: {
        loading: {
          invoke: {
            src: 'loadCaseworkEntry',
            input: ({ context }) => ({ register: context.register, id: context.id! }),
            onDone: { target: 'ready', actions: assign({ entry: ({ event }) => event.output, form: null, outcome: '' }) },
            onError: [SESSION_ENDED_HERE, { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        ready: {
          on: {
            'entry.save': [
              { guard: and(['mayEdit', 'formValid']), target: 'saving', actions: ['clearMessages', assign({ form: ({ event }) => event.form })] },
              { guard: 'mayEdit', actions: [assign({ form: ({ event }) => event.form }), 'showProblems'] },
            ],
            'entry.close': [
              { guard: 'mayClose', target: 'closing', actions: ['clearMessages', assign({ outcome: ({ event }) => event.outcome.trim() })] },
              { guard: 'mayCloseButNoOutcome', actions: 'showProblems' },
            ],
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            src: 'saveCaseworkEntry',
            input: ({ context }) => ({ register: context.register, id: context.id!, form: context.form! }),
            onDone: { target: 'loading', actions: assign({ notice: CASEWORK_NOTICES.saved }) },
            onError: [SESSION_ENDED_HERE, { guard: { type: 'conflict', params: ({ event }) => ({ error: event.error }) }, target: 'loading', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
              { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        closing: {
          tags: 'busy',
          invoke: {
            src: 'closeCaseworkEntry',
            input: ({ context }) => ({ register: context.register, id: context.id!, outcome: context.outcome }),
            onDone: { target: 'loading', actions: assign({ notice: ({ event }) => CASEWORK_NOTICES.closed(event.output.emailed) }) },
            // Closed meanwhile (another dispatcher, a second press): the entry as it is now, with why.
            onError: [SESSION_ENDED_HERE, { guard: { type: 'conflict', params: ({ event }) => ({ error: event.error }) }, target: 'loading', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
              { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        failed: { on: { retry: { target: 'loading', actions: 'clearMessages' } } },
      },
    },
    creating: {
      entry: assign({ id: null, entry: null, form: ({ context }) => context.form ?? {} }),
      initial: 'editing',
      on: { 'entry.back': { target: 'list', actions: ['clearMessages', 'tellList'] } },
      states: {
        editing: {
          on: {
            'entry.save': [
              { guard: 'formValid', target: 'sending', actions: ['clearMessages', assign({ form: ({ event }) => event.form })] },
              { actions: [assign({ form: ({ event }) => event.form }), 'showProblems'] },
            ],
          },
        },
        sending: {
          tags: 'busy',
          invoke: {
            src: 'createCaseworkEntry',
            input: ({ context }) => ({ register: context.register, form: context.form! }),
            onDone: { target: '#casework.entry', actions: [assign({ id: ({ event }) => event.output.id, notice: ({ event }) => CASEWORK_NOTICES.opened(event.output.number) }), 'tellEntry'] },
            onError: [SESSION_ENDED_HERE, { target: 'editing', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
      },
    },
  },
});
