// The corporate area's Journeys and expenses (issue 44 §3; the filter's rule is src/domain/expenses.ts): a booker's own
// journeys, filtered by pickup date and by a value of one of their company account's fields, listed, and downloaded as
// a CSV file of the same filter. A page run as a child machine of the account's (./account.ts, ./accountPage.ts):
// started with the session, it ends only when a call is answered 401.
//
// A filter the rule refuses is refused on its field and nothing is asked; one the server refuses (422) is shown on
// the field it names, and the list on screen stays. The CSV is always of the list on screen, when it lists journeys.
import { assign, setup } from 'xstate';
import { journeyFilterProblem, NO_FILTER, type JourneyFilter, type JourneysAnswer } from '../src/domain/expenses';
import { failure, provided } from './shared';
import { isSessionEnd, pageError, SESSION_ENDED_OUTPUT, type PageError } from './accountPage';
import type { AccountPageInput, AccountPageOutput, Session } from './account';

export interface JourneysContext {
  session: Session;
  /** The filter of the list on screen (the CSV's), and the one asked for (the same once its list arrives). */
  shown: JourneyFilter;
  asked: JourneyFilter;
  answer: JourneysAnswer | null;
  error: PageError | null;
  notice: string | null;
}

export type JourneysEvent =
  | ({ type: 'journeys.filter' } & JourneyFilter)
  | { type: 'journeys.csv' }
  | { type: 'journeys.retry' };

export const JOURNEYS_NOTICES = { downloaded: 'The CSV file has been downloaded.' } as const;

/** The fields of the filter form a refusal can be about. */
const FILTER_FIELDS: readonly string[] = ['from', 'to', 'field', 'value'] satisfies (keyof JourneyFilter)[];
/** The filter an event asks for. */
const filterOf = ({ from, to, field, value }: JourneyFilter): JourneyFilter => ({ from, to, field, value });

export const journeysMachine = setup({
  types: {
    context: {} as JourneysContext,
    events: {} as JourneysEvent,
    input: {} as AccountPageInput,
    output: {} as AccountPageOutput,
  },
  actors: {
    /** GET /account/journeys with the filter: the account's fields and the journeys. */
    fetchJourneys: provided<JourneysAnswer, { session: Session; filter: JourneyFilter }>('fetchJourneys'),
    /** GET /account/journeys.csv with the same filter, saved as a file. */
    downloadJourneysCsv: provided<void, { session: Session; filter: JourneyFilter }>('downloadJourneysCsv'),
  },
  actions: {
    clearMessages: assign({ error: null, notice: null }),
    setError: assign((_, { error }: { error: unknown }) => ({ error: pageError(error), notice: null })),
    ask: assign((_, filter: JourneyFilter) => ({ asked: filter, error: null, notice: null })),
    /** A filter the rule refuses: its message on the field to correct, and nothing asked for. */
    refuseFilter: assign((_, filter: JourneyFilter) => {
      const problem = journeyFilterProblem(filter);
      return problem ? { error: { message: problem.message, field: problem.field, status: 422 }, notice: null } : {};
    }),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    filterAsked: (_, filter: JourneyFilter) => journeyFilterProblem(filter) === null,
    /** A list with journeys is on screen: there is something to download. */
    listShown: ({ context }) => (context.answer?.journeys.length ?? 0) > 0,
    /** The server refused the filter on one of the form's fields, and a list is on screen to keep. */
    refusedOnField: ({ context }, { error }: { error: unknown }) =>
      context.answer !== null && FILTER_FIELDS.includes(pageError(error).field ?? ''),
  },
}).createMachine({
  id: 'accountJourneys',
  context: ({ input }) => ({ session: input.session, shown: NO_FILTER, asked: NO_FILTER, answer: null, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchJourneys',
        input: ({ context }) => ({ session: context.session, filter: context.asked }),
        onDone: { target: 'ready', actions: assign({ answer: ({ event }) => event.output, shown: ({ context }) => context.asked }) },
        onError: [
          { guard: { type: 'sessionEnded', params: failure }, target: 'ended' },
          { guard: { type: 'refusedOnField', params: failure }, target: 'ready', actions: { type: 'setError', params: failure } },
          { target: 'failed', actions: { type: 'setError', params: failure } },
        ],
      },
    },
    ready: {
      on: {
        'journeys.filter': [
          { guard: { type: 'filterAsked', params: ({ event }) => filterOf(event) }, target: 'loading', actions: { type: 'ask', params: ({ event }) => filterOf(event) } },
          { actions: { type: 'refuseFilter', params: ({ event }) => filterOf(event) } },
        ],
        'journeys.csv': { guard: 'listShown', target: 'downloading', actions: 'clearMessages' },
      },
    },
    downloading: {
      invoke: {
        src: 'downloadJourneysCsv',
        input: ({ context }) => ({ session: context.session, filter: context.shown }),
        onDone: { target: 'ready', actions: assign({ notice: JOURNEYS_NOTICES.downloaded }) },
        onError: [
          { guard: { type: 'sessionEnded', params: failure }, target: 'ended' },
          { target: 'ready', actions: { type: 'setError', params: failure } },
        ],
      },
    },
    // The journeys could not be loaded: the message, and Try again (or another filter).
    failed: {
      on: {
        'journeys.retry': { target: 'loading', actions: 'clearMessages' },
        'journeys.filter': [
          { guard: { type: 'filterAsked', params: ({ event }) => filterOf(event) }, target: 'loading', actions: { type: 'ask', params: ({ event }) => filterOf(event) } },
          { actions: { type: 'refuseFilter', params: ({ event }) => filterOf(event) } },
        ],
      },
    },
    // A call was answered 401: the account signs the booker out, to come back here after signing in.
    ended: { type: 'final' },
  },
  output: SESSION_ENDED_OUTPUT,
});
