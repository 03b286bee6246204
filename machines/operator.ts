// The office's console (issue 26): staff sign-in, the bookings board (tabs, search, filters, new bookings noticed
// while it is open), a booking's page with the office's actions (each confirmed first), the mail queue and the export.
// The app machine (./app.ts) spawns it when the console's code has loaded and hands it every location under
// /operator as `url.changed`; the address bar shows `context.location`, which each screen's state sets on entry.
// A call answered 401 (the session ended) signs the console out, keeping where it was to come back after sign-in.
// Its context, input and events are in ./operatorTypes; its setup, helpers and the booking page's states in ./operatorSetup.
import { assertEvent, assign, type SnapshotFrom } from 'xstate';
import { locationOfScreen, pathWith, screenOfPath } from '../src/domain/screens';
import { sectionsFor } from '../src/domain/operatorData';
import { output } from './shared';
import type { MailStatus } from './operatorTypes';
import { bookingPage, consolePage, newest, operatorSetup, queryOfSearch, searchOfQuery, sectionOf, SESSION_ENDED, showError } from './operatorSetup';
import { dataPage, exportPage, mailPage } from './operatorPages';

export type {
  ActionResult, Board, BoardQuery, BoardRow, BookingPage, CallError, DataSaved, DeskAction, Filters, Latest, MailRow, MailStatus,
  OperatorContext, OperatorEvent, OperatorInput, Records, StaffMember, TimelineEntry,
} from './operatorTypes';
export { queryOfSearch, searchOfQuery } from './operatorSetup';

export const operatorMachine = operatorSetup.createMachine({
  id: 'operator',
  context: ({ input }) => ({
    location: input.location, wanted: screenOfPath(input.location.path) === 'operatorLogin' ? null : input.location, staff: null, query: queryOfSearch(input.location.search), board: null, filters: null,
    seenId: null, seenCount: null, latest: null, reference: null, page: null, action: null, records: null, mailStatus: 'failed', mail: null, quiet: false,
    dataSection: 'settings', data: null, password: null, error: null, notice: null,
  }),
  initial: 'checking',
  states: {
    // Is there a session (the cookie is the browser's)? Meanwhile the address bar keeps what was asked for.
    checking: {
      tags: 'busy',
      invoke: {
        src: 'getSession',
        onDone: [
          { guard: ({ event }) => event.output !== null, target: 'signedIn', actions: { type: 'setStaff', params: ({ event }) => event.output! } },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      initial: 'idle',
      entry: { type: 'setLocation', params: () => ({ location: locationOfScreen('operatorLogin') }) },
      on: {
        'url.changed': { actions: 'rememberLocation', target: '.idle', reenter: true },
      },
      states: {
        idle: {
          meta: { screen: 'operatorLogin' },
          on: {
            signIn: { target: 'signingIn', actions: 'clearMessages' },
          },
        },
        signingIn: {
          meta: { screen: 'operatorLogin' },
          tags: 'busy',
          invoke: {
            src: 'signIn',
            input: ({ event }) => {
              assertEvent(event, 'signIn');
              return { email: event.email, password: event.password };
            },
            onDone: { target: '#operator.signedIn', actions: { type: 'setStaff', params: output } },
            onError: showError('idle'),
          },
        },
      },
    },
    signingOut: {
      tags: 'busy',
      invoke: {
        src: 'signOut',
        onDone: { target: 'signedOut', actions: assign({ staff: null, wanted: null, board: null, page: null, mail: null, notice: null, error: null }) },
        onError: { target: 'signedOut', actions: assign({ staff: null, wanted: null, board: null, page: null, mail: null }) },
      },
    },
    signedIn: {
      // Back to what was asked for before the sign-in; the sign-in page itself leads to the board.
      entry: assign(({ context }) => {
        const wanted = context.wanted && screenOfPath(context.wanted.path) !== 'operatorLogin' ? context.wanted : locationOfScreen('operatorBoard');
        return { location: wanted, wanted: null, query: screenOfPath(wanted.path) === 'operatorBoard' ? queryOfSearch(wanted.search) : context.query };
      }),
      invoke: [
        { id: 'watchLatest', src: 'watchLatest' },
        { id: 'watchChanges', src: 'watchChanges' },
        { src: 'loadFilters', onDone: { actions: assign({ filters: ({ event }) => event.output }) }, onError: {} },
      ],
      on: {
        'url.changed': { target: '.routing', actions: ['takeLocation', 'clearMessages'] },
        signOut: { target: 'signingOut' },
        latest: { actions: assign({ latest: ({ context, event }) => newest(context.latest, event.latest) }) },
        open: {
          target: '.booking',
          actions: [
            { type: 'setLocation', params: ({ event }) => ({ location: { path: pathWith('operatorBooking', { reference: event.reference }), search: '' } }) },
            'clearMessages',
          ],
        },
        // The mail and data pages set their address as they are entered (again, for another status or part).
        'mail.show': { target: '.mail', actions: assign({ mailStatus: ({ event }) => event.status }) },
        'data.show': {
          guard: ({ context, event }) => sectionsFor(context.staff?.role).includes(event.section),
          target: '.data',
          actions: [
            assign({ dataSection: ({ event }) => event.section, password: null }), 'clearMessages',
          ],
        },
      },
      initial: 'routing',
      states: {
        routing: {
          always: [
            { guard: 'onBooking', target: 'booking' },
            { guard: 'onMail', target: 'mail', actions: assign({ mailStatus: ({ context }) => (new URLSearchParams(context.location.search).get('status') as MailStatus) || 'failed' }) },
            { guard: 'onExport', target: 'export' },
            { guard: 'onData', target: 'data', actions: assign({ dataSection: ({ context }) => sectionOf(context.location.search, context.staff?.role) }) },
            // Issue 43's pages, each run as a child machine (./consolePage.ts).
            { guard: { type: 'onScreen', params: { screen: 'operatorRecords' } }, target: 'records' },
            // Issue 44: the corporate accounts and their invoices (every member of staff; a company's staff their own).
            { guard: { type: 'onScreen', params: { screen: 'operatorAccounts' } }, target: 'accounts' },
            { guard: { type: 'onScreen', params: { screen: 'operatorInvoices' } }, target: 'invoices' },
            { guard: { type: 'onScreen', params: { screen: 'operatorComplaints' } }, target: 'complaints' },
            { guard: { type: 'onScreen', params: { screen: 'operatorLostProperty' } }, target: 'lostProperty' },
            { guard: { type: 'onScreen', params: { screen: 'operatorNewBooking' } }, target: 'newBooking' },
            // Privacy requests: administrators alone (src/domain/retention.ts mayHandlePrivacyRequests); others see the board.
            { guard: 'onPrivacy', target: 'privacy' },
            { target: 'board', actions: assign({ query: ({ context }) => queryOfSearch(context.location.search) }) },
          ],
        },
        board: {
          meta: { screen: 'operatorBoard' },
          entry: [{ type: 'setLocation', params: ({ context }) => ({ location: locationOfScreen('operatorBoard', searchOfQuery(context.query)) }) }, assign({ quiet: false })],
          on: {
            'board.query': {
              target: '.loading',
              actions: [
                assign({ query: ({ context, event }) => ({ ...context.query, ...event.query }), quiet: false }),
                { type: 'setLocation', params: ({ context, event }) => ({ location: locationOfScreen('operatorBoard', searchOfQuery({ ...context.query, ...event.query })) }) },
              ],
            },
            // What is new is shown: the board is loaded again, and everything on it counts as seen.
            'board.showNew': { target: '.loading', actions: assign({ seenId: null, seenCount: null, quiet: false }) },
          },
          initial: 'loading',
          states: {
            // `quiet`: loaded again because a booking changed (issue 41 §5): in place, without a word, and a miss keeps
            // the board as it was. A change heard meanwhile starts the load again, so the board is never older than it.
            loading: {
              invoke: {
                src: 'loadBoard',
                input: ({ context }) => context.query,
                onDone: {
                  target: 'ready',
                  actions: assign(({ context, event }) => {
                    // The board's answer and the watch race: the newer of the two is what is known.
                    const latest = newest(context.latest, event.output.latest);
                    return { board: event.output, latest, seenId: context.seenId ?? latest.latest_id, seenCount: context.seenCount ?? latest.count, quiet: false };
                  }),
                },
                onError: [
                  SESSION_ENDED,
                  { guard: ({ context }) => context.quiet && context.board !== null, target: 'ready', actions: assign({ quiet: false }) },
                  showError('failed'),
                ],
              },
              on: { 'booking.changed': { target: 'loading', reenter: true } },
            },
            // New bookings load in place while the board is open; they stay marked new until "Show".
            ready: {
              on: {
                latest: { guard: 'newerThanBoard', target: 'loading', actions: assign({ latest: ({ context, event }) => newest(context.latest, event.latest), quiet: false }) },
                'booking.changed': { target: 'loading', actions: assign({ quiet: true }) },
              },
            },
            failed: { on: { retry: 'loading' } },
          },
        },
        booking: bookingPage,
        mail: mailPage,
        data: dataPage,
        export: exportPage,
        // Issue 43: the pages of the operator's books, each its own machine, started with the address and who is signed in.
        records: consolePage('operatorRecords', 'recordsPage'),
        accounts: consolePage('operatorAccounts', 'accountsPage'),
        invoices: consolePage('operatorInvoices', 'invoicesPage'),
        complaints: consolePage('operatorComplaints', 'caseworkPage'),
        lostProperty: consolePage('operatorLostProperty', 'caseworkPage'),
        newBooking: consolePage('operatorNewBooking', 'phoneBookingPage'),
        privacy: consolePage('operatorPrivacy', 'privacyPage'),
      },
    },
  },
});

export type OperatorSnapshot = SnapshotFrom<typeof operatorMachine>;

/** How many bookings arrived since the person was last shown the board (bookings are never deleted). */
export const unseenCount = (s: OperatorSnapshot): number => {
  const { latest, seenCount } = s.context;
  return latest && seenCount !== null ? Math.max(0, latest.count - seenCount) : 0;
};
