// The office's console's setup (./operator.ts builds its machine on it): the named actors, actions and guards, the
// transitions every call's refusal shares, the helpers the states use (the board's query and the data part in the
// address bar, a booking's reference, the newest booking known, what each action says once done), and the booking
// page's sub-flow (`signedIn.booking`), a state config of that setup.
import { assertEvent, assign, fromCallback, setup } from 'xstate';
import type { BoardTab } from '../src/domain/operatorDesk';
import { MESSAGES } from '../src/domain/operatorDesk';
import { screenOfPath, type Location, type OperatorScreen } from '../src/domain/screens';
import { isDataSection, sectionsFor, type DataChange, type DataSection } from '../src/domain/operatorData';
import { mayHandlePrivacyRequests } from '../src/domain/retention';
import { failure, provided } from './shared';
import { asCallError, isSessionEnd } from './consolePage';
import { recordsMachine } from './operatorRecords';
import { caseworkMachine } from './operatorCasework';
import { phoneBookingMachine } from './phoneBooking';
import { privacyMachine } from './operatorPrivacy';
import { accountsMachine } from './operatorAccounts';
import { invoicesMachine } from './operatorInvoices';
import type {
  ActionResult, Board, BoardQuery, BookingPage, CallError, DataSaved, DeskAction, Filters, Latest, MailRow, MailStatus,
  OperatorContext, OperatorEvent, OperatorInput, Records, StaffMember,
} from './operatorTypes';

const TABS: readonly string[] = ['today', 'upcoming', 'past', 'awaiting', 'cancelled'];

/** The board's query as the address bar keeps it: /operator?tab=upcoming&q=smith. */
export function queryOfSearch(search: string): BoardQuery {
  const p = new URLSearchParams(search);
  const tab = p.get('tab') ?? '';
  return {
    tab: (TABS.includes(tab) ? tab : 'today') as BoardTab, q: p.get('q') ?? '', company: p.get('company') ?? '',
    vehicle: p.get('vehicle') ?? '', status: p.get('status') ?? '',
  };
}
export function searchOfQuery(q: BoardQuery): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v && !(k === 'tab' && v === 'today')) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The newer of two views of the newest booking. */
export const newest = (a: Latest | null, b: Latest): Latest => (a && a.latest_id > b.latest_id ? a : b);

/** The part of the operator data an address names: /operator/data?section=fleet. */
/** The part of the operator data an address asks for, when the role may open it; else the role's first part. */
export const sectionOf = (search: string, role: string | undefined): DataSection => {
  const section = new URLSearchParams(search).get('section') ?? '';
  const open = sectionsFor(role);
  return isDataSection(section) && open.includes(section) ? section : open[0];
};
export const searchOfSection = (section: DataSection) => (section === 'settings' ? '' : `?section=${section}`);

/** The reference of a booking page's path. */
export const referenceOf = (path: string) => decodeURIComponent(/[^/]*$/.exec(path)![0]).toUpperCase();
export const ACTION_DONE: Record<DeskAction['kind'], string> = {
  assignDriver: 'Driver and car saved. The passenger has been e-mailed the details.',
  complete: 'Marked as completed.', noShow: 'Marked as a no-show.',
  cancel: 'Booking cancelled. The passenger, the office and the company have been told.',
  retryRefund: 'Refund asked for again.',
  refund: 'Refund made. The passenger has been e-mailed.',
  adjustCharge: 'Charge changed.',
};


/** Any call answered 401: the session ended, and the console signs out, keeping where it was (`sessionEnded`). */
export const SESSION_ENDED = { guard: { type: 'sessionEnded', params: failure }, target: '#operator.signedOut', actions: 'sessionEnded' } as const;
/** A call's other refusals: shown, in the given state. */
export const showError = <T extends string>(target: T) => ({ target, actions: { type: 'setError', params: failure } }) as const;

export const operatorActors = {
  /** The member of staff signed in in this browser, or null. */
  getSession: provided<StaffMember | null>('getSession'),
  signIn: provided<StaffMember, { email: string; password: string }>('signIn'),
  signOut: provided<void>('signOut'),
  loadBoard: provided<Board, BoardQuery>('loadBoard'),
  loadFilters: provided<Filters>('loadFilters'),
  loadBooking: provided<BookingPage, { reference: string }>('loadBooking'),
  loadRecords: provided<Records>('loadRecords'),
  runAction: provided<ActionResult, { reference: string; action: DeskAction }>('runAction'),
  loadMail: provided<MailRow[], { status: MailStatus }>('loadMail'),
  retryMail: provided<unknown, { id: number }>('retryMail'),
  exportCsv: provided<void, { from: string; to: string }>('exportCsv'),
  loadData: provided<unknown, { section: DataSection }>('loadData'),
  saveData: provided<DataSaved, { change: DataChange }>('saveData'),
  /** The console's pages run as child machines (./consolePage.ts), started with the address and the member of staff. */
  recordsPage: recordsMachine,
  phoneBookingPage: phoneBookingMachine,
  privacyPage: privacyMachine,
  /** Issue 43 §3: Complaints and Lost property, one machine for both registers. */
  caseworkPage: caseworkMachine,
  /** Issue 44: the corporate accounts, and their invoices. */
  accountsPage: accountsMachine,
  invoicesPage: invoicesMachine,
  /** Polls the newest booking every few seconds and sends `latest` (provided by the app; tests send it themselves). */
  watchLatest: fromCallback(() => () => {}),
  /** Hears of every change of a booking this member of staff may see and sends `booking.changed` (provided by the app). */
  watchChanges: fromCallback(() => () => {}),
};

interface Args { context: OperatorContext; event: OperatorEvent }
/** An assign on the console's context, with the params its transitions give it. */
const change = <P extends object | undefined = undefined>(
  assignment: Parameters<typeof assign<OperatorContext, OperatorEvent, P, OperatorEvent, never>>[0],
) => assign<OperatorContext, OperatorEvent, P, OperatorEvent, never>(assignment);

export const operatorActions = {
  setLocation: change<{ location: Location }>({ location: (_, params) => params.location }),
  rememberLocation: change({
    wanted: ({ event }) => (event.type === 'url.changed' && screenOfPath(event.path) !== 'operatorLogin' ? { path: event.path, search: event.search } : null),
  }),
  takeLocation: change(({ event }) => {
    assertEvent(event, 'url.changed');
    return { location: { path: event.path, search: event.search } };
  }),
  setStaff: change<StaffMember>({ staff: (_, staff) => staff }),
  setError: change<{ error: unknown }>({ error: (_, { error }) => asCallError(error), notice: null }),
  clearMessages: change({ error: null, notice: null }),
  sessionEnded: change({ staff: null, error: { message: MESSAGES.sessionEnded }, wanted: ({ context }) => context.location, board: null, page: null, mail: null }),
};

export const operatorGuards = {
  sessionEnded: (_: Args, { error }: { error: unknown }) => isSessionEnd(error),
  onBooking: ({ context }: Args) => screenOfPath(context.location.path) === 'operatorBooking',
  onMail: ({ context }: Args) => screenOfPath(context.location.path) === 'operatorMail',
  onExport: ({ context }: Args) => screenOfPath(context.location.path) === 'operatorExport',
  /** The privacy requests page, for an administrator (the server refuses anyone else too). */
  onPrivacy: ({ context }: Args) => screenOfPath(context.location.path) === 'operatorPrivacy' && mayHandlePrivacyRequests(context.staff?.role),
  /** A page run as a child machine: its screen is the address's. */
  onScreen: ({ context }: Args, { screen }: { screen: OperatorScreen }) => screenOfPath(context.location.path) === screen,
  /** Operator data: every part for administrators, the drivers and cars for other staff (sectionsFor). */
  onData: ({ context }: Args) => screenOfPath(context.location.path) === 'operatorData' && sectionsFor(context.staff?.role).length > 0,
  newerThanBoard: ({ context, event }: Args) => event.type === 'latest' && event.latest.latest_id > (context.board?.latest.latest_id ?? 0),
};

export const operatorSetup = setup({
  types: {
    context: {} as OperatorContext,
    events: {} as OperatorEvent,
    input: {} as OperatorInput,
    meta: {} as { screen?: OperatorScreen },
  },
  actors: operatorActors,
  actions: operatorActions,
  guards: operatorGuards,
});

/**
 * A page run as a child machine (./consolePage.ts), invoked as `page` with the address and the member of staff while
 * its screen is open. What it tells the console is heard here alone: the address it shows, and a session that ended.
 */
export const consolePage = (screen: OperatorScreen, src: 'recordsPage' | 'privacyPage' | 'phoneBookingPage' | 'caseworkPage' | 'accountsPage' | 'invoicesPage') => operatorSetup.createStateConfig({
  meta: { screen },
  invoke: { id: 'page', src, input: ({ context }) => ({ location: context.location, staff: context.staff! }) },
  on: {
    'page.location': { actions: { type: 'setLocation', params: ({ event }) => ({ location: event.location }) } },
    'page.sessionEnded': { target: '#operator.signedOut', actions: 'sessionEnded' },
  },
});

/** A booking's page: loaded, then the office's actions, each confirmed in its dialog first. */
export const bookingPage = operatorSetup.createStateConfig({
  meta: { screen: 'operatorBooking' },
  entry: assign({ reference: ({ context }) => referenceOf(context.location.path), page: null, action: null, records: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadBooking',
        input: ({ context }) => ({ reference: context.reference! }),
        onDone: { target: 'ready', actions: assign({ page: ({ event }) => event.output }) },
        onError: [
          SESSION_ENDED,
          { guard: ({ event }) => (event.error as CallError)?.status === 404, target: 'notFound' },
          showError('failed'),
        ],
      },
    },
    notFound: {},
    failed: { on: { retry: 'loading' } },
    ready: {
      on: {
        // This booking changed elsewhere (its driver, another desk), or anything may have (id 0: the stream was opened
        // again and what it missed is unknown): shown as it is now.
        'booking.changed': { guard: ({ context, event }) => event.id === 0 || context.page?.booking.booking.id === event.id, target: 'loading' },
        'action.start': [
          // The driver and car are chosen from the record: loaded first, as they stand now.
          {
            target: 'loadingRecords',
            guard: ({ context, event }) => event.action === 'assignDriver' && Boolean(context.page?.desk.actions.includes('assignDriver')),
            actions: [assign({ action: 'assignDriver', records: null }), 'clearMessages'],
          },
          {
            target: 'confirming',
            guard: ({ context, event }) => event.action === 'retryRefund' || Boolean(context.page?.desk.actions.includes(event.action)),
            actions: [assign({ action: ({ event }) => event.action }), 'clearMessages'],
          },
        ],
      },
    },
    loadingRecords: {
      tags: 'busy',
      invoke: {
        src: 'loadRecords',
        onDone: { target: 'confirming', actions: assign({ records: ({ event }) => event.output }) },
        onError: [
          SESSION_ENDED,
          { target: 'ready', actions: [assign({ action: null }), { type: 'setError', params: failure }] },
        ],
      },
    },
    // The action's dialog: a form (driver, cancel) or a question (completed, no-show, refund), then Confirm.
    confirming: {
      on: {
        'action.cancel': { target: 'ready', actions: assign({ action: null, error: null, records: null }) },
        'action.confirm': { target: 'acting', actions: assign({ error: null }) },
      },
    },
    acting: {
      tags: 'busy',
      invoke: {
        src: 'runAction',
        input: ({ context, event }) => {
          assertEvent(event, 'action.confirm');
          return { reference: context.reference!, action: event.action };
        },
        onDone: {
          target: 'loading',
          actions: assign(({ event }) => {
            const { kind, refund, done } = event.output;
            return {
              action: null, records: null,
              // The server's own words where it has them (a change of charge: the note it issued).
              notice: refund?.status === 'failed' ? null : done ?? ACTION_DONE[kind],
              error: refund?.status === 'failed' ? { message: `The booking is cancelled, but the refund failed: ${refund.error}. Use Retry refund.` } : null,
            };
          }),
        },
        onError: [
          SESSION_ENDED,
          // Someone else changed the booking meanwhile: it is loaded again, with the message.
          { guard: ({ event }) => (event.error as CallError)?.status === 409, target: 'loading', actions: [assign({ action: null, records: null }), { type: 'setError', params: failure }] },
          showError('confirming'),
        ],
      },
    },
  },
});
