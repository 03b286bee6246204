// A driver's "found item" (issue 43 §3, decision 61): on a job whose passenger has been on board, the driver says what
// was left in the car and where; the server opens a lost property entry linked to the booking, the driver and the car,
// and the office sees it. Invoked by the driver's page (./driver.ts) in the job's `reportingFound` state with the job's
// reference; it ends with what became of the report: sent (with the entry's number), given up, or the session ended.
// editing -> sending -> reported; a refusal shows on its field (422) or above the form, and the form is kept.
import { assign, setup } from 'xstate';
import { foundItemErrors, type FoundItemInput } from '../src/domain/casework';
import { errorText, provided } from './shared';
import type { CallError } from './driverTypes';

export interface FoundItemContext {
  reference: string;
  /** What was typed, kept through a refusal. */
  form: FoundItemInput;
  /** The form's own rules' messages, by field (src/domain/casework.ts foundItemErrors), and the server's. */
  fieldErrors: Partial<Record<keyof FoundItemInput, string>>;
  error: CallError | null;
  outcome: FoundItemOutput | null;
}

export type FoundItemEvent =
  | { type: 'found.submit'; description: string; found_place: string }
  | { type: 'found.cancel' };

/** What the driver's page hears when the form closes. */
export type FoundItemOutput = { kind: 'reported'; number: string } | { kind: 'cancelled' } | { kind: 'signedOut' };

const asCallError = (e: unknown): CallError => {
  const { field, status } = (typeof e === 'object' && e ? e : {}) as Partial<CallError>;
  return { message: errorText(e), ...(field ? { field } : {}), ...(status ? { status } : {}) };
};
const isField = (field: string | undefined): field is keyof FoundItemInput => field === 'description' || field === 'found_place';

export const driverFoundItemMachine = setup({
  types: {
    context: {} as FoundItemContext,
    events: {} as FoundItemEvent,
    input: {} as { reference: string },
    output: {} as FoundItemOutput,
  },
  actors: {
    /** POST /driver/jobs/{reference}/found: the entry's number. */
    reportFound: provided<{ number: string }, { reference: string } & FoundItemInput>('reportFound'),
  },
  actions: {
    keepForm: assign({
      form: ({ event }) => (event.type === 'found.submit' ? { description: event.description, found_place: event.found_place } : { description: '', found_place: '' }),
      fieldErrors: ({ event }) => (event.type === 'found.submit' ? foundItemErrors(event) : {}),
      error: null,
    }),
  },
  guards: {
    /** The form's own rules pass (the server checks them again). */
    valid: ({ event }) => event.type === 'found.submit' && Object.keys(foundItemErrors(event)).length === 0,
    sessionEnded: ({ event }) => (event as { error?: CallError }).error?.status === 401,
  },
}).createMachine({
  id: 'driverFoundItem',
  context: ({ input }) => ({ reference: input.reference, form: { description: '', found_place: '' }, fieldErrors: {}, error: null, outcome: null }),
  initial: 'editing',
  output: ({ context }) => context.outcome ?? { kind: 'cancelled' },
  states: {
    editing: {
      on: {
        'found.submit': [{ guard: 'valid', target: 'sending', actions: 'keepForm' }, { actions: 'keepForm' }],
        'found.cancel': { target: 'done', actions: assign({ outcome: { kind: 'cancelled' } }) },
      },
    },
    sending: {
      tags: 'busy',
      invoke: {
        id: 'reportFound',
        src: 'reportFound',
        input: ({ context }) => ({ reference: context.reference, ...context.form }),
        onDone: { target: 'done', actions: assign({ outcome: ({ event }) => ({ kind: 'reported' as const, number: event.output.number }) }) },
        onError: [
          { guard: 'sessionEnded', target: 'done', actions: assign({ outcome: { kind: 'signedOut' } }) },
          {
            target: 'editing',
            actions: assign(({ event }) => {
              const error = asCallError(event.error);
              return isField(error.field) ? { fieldErrors: { [error.field]: error.message }, error: null } : { fieldErrors: {}, error };
            }),
          },
        ],
      },
    },
    done: { type: 'final' },
  },
});
