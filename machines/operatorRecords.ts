// The console's Records page (issue 43 §2; the rules are src/domain/bookingRecords.ts): the bookings picked up in a range
// of UK days with what the licensing rules ask each to keep, printable and as a CSV. A page of the console run as its
// child machine (./consolePage.ts): started with the address (/operator/records?from=2026-11-24&to=2026-11-24; none
// asked for: the server's today), it loads the records, and tells the console the range it shows.
import { assign, sendParent, setup } from 'xstate';
import { recordsRangeProblem, searchOfRecordsRange, type RecordsAnswer, type RecordsRange } from '../src/domain/bookingRecords';
import { locationOfScreen } from '../src/domain/screens';
import { provided } from './shared';
import { asCallError, isSessionEnd, pageAt, SESSION_ENDED_EVENT, SESSION_ENDED_HERE, type ConsolePageInput } from './consolePage';
import type { CallError } from './operatorTypes';

export interface RecordsContext {
  /** The range asked for: from the address, then as the server answered it. */
  range: RecordsRange;
  answer: RecordsAnswer | null;
  error: CallError | null;
  notice: string | null;
}

export type RecordsEvent =
  | { type: 'records.show'; range: RecordsRange }
  | { type: 'records.csv' }
  | { type: 'retry' };

export const RECORDS_NOTICES = { downloaded: 'The CSV file has been downloaded.' } as const;

const rangeOfSearch = (search: string): RecordsRange => {
  const p = new URLSearchParams(search);
  return { from: p.get('from') ?? '', to: p.get('to') ?? p.get('from') ?? '' };
};

export const recordsMachine = setup({
  types: {
    context: {} as RecordsContext,
    events: {} as RecordsEvent,
    input: {} as ConsolePageInput,
  },
  actors: {
    /** GET /operator/records: the heading and the records of the range (an empty range: today's). */
    loadBookingRecords: provided<RecordsAnswer, RecordsRange>('loadBookingRecords'),
    /** GET /operator/records.csv, saved as a file. */
    downloadRecordsCsv: provided<void, RecordsRange>('downloadRecordsCsv'),
  },
  actions: {
    tellSessionEnded: sendParent(SESSION_ENDED_EVENT),
    setError: assign((_, { error }: { error: unknown }) => ({ error: asCallError(error), notice: null })),
    /** A range the page cannot show: its message on the field to correct, and nothing asked for. */
    refuseRange: assign(({ event }) => {
      const problem = event.type === 'records.show' ? recordsRangeProblem(event.range) : null;
      return problem ? { error: { message: problem.message, field: problem.field, status: 422 }, notice: null } : {};
    }),
    /** The console shows the range on screen in the address bar. */
    tellRange: sendParent(({ context }: { context: RecordsContext }) => pageAt(locationOfScreen('operatorRecords', searchOfRecordsRange(context.range)))),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    /** A range the page can show (the same rule as the server's). */
    rangeShown: (_, range: RecordsRange) => recordsRangeProblem(range) === null,
  },
}).createMachine({
  id: 'records',
  context: ({ input }) => ({ range: rangeOfSearch(input.location.search), answer: null, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadBookingRecords',
        input: ({ context }) => context.range,
        onDone: {
          target: 'ready',
          actions: [
            assign({ answer: ({ event }) => event.output, range: ({ event }) => event.output.range }),
            'tellRange',
          ],
        },
        onError: [SESSION_ENDED_HERE, { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
      },
    },
    ready: {
      on: {
        'records.show': [
          {
            guard: { type: 'rangeShown', params: ({ event }) => event.range },
            target: 'loading',
            actions: assign({ range: ({ event }) => event.range, error: null, notice: null }),
          },
          { actions: 'refuseRange' },
        ],
        'records.csv': { target: 'downloading', actions: assign({ error: null, notice: null }) },
      },
    },
    downloading: {
      tags: 'busy',
      invoke: {
        src: 'downloadRecordsCsv',
        input: ({ context }) => context.range,
        onDone: { target: 'ready', actions: assign({ notice: RECORDS_NOTICES.downloaded }) },
        onError: [SESSION_ENDED_HERE, { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
      },
    },
    // The records could not be loaded: the message, and Try again (or another range).
    failed: {
      on: {
        retry: { target: 'loading', actions: assign({ error: null }) },
        'records.show': [
          {
            guard: { type: 'rangeShown', params: ({ event }) => event.range },
            target: 'loading',
            actions: assign({ range: ({ event }) => event.range, error: null }),
          },
          { actions: 'refuseRange' },
        ],
      },
    },
  },
});
