// The office's console (issue 26): staff sign-in, the bookings board (tabs, search, filters, new bookings noticed
// while it is open), a booking's page with the office's actions (each confirmed first), the mail queue and the export.
// The app machine (./app.ts) spawns it when the console's code has loaded and hands it every location under
// /operator as `url.changed`; the address bar shows `context.location`, which each screen's state sets on entry.
// A call answered 401 (the session ended) signs the console out, keeping where it was to come back after sign-in.
import type { AlertMinutes } from '../src/domain/tracking';
import { assertEvent, assign, fromCallback, setup, type SnapshotFrom } from 'xstate';
import type { BoardTab, BookingAction, CancelInput, DriverInput } from '../src/domain/operatorDesk';
import type { AssignInput, CarRecord, DispatchNeeds, DriverRecord } from '../src/domain/fleetRecords';
import { MESSAGES } from '../src/domain/operatorDesk';
import { locationOfScreen, pathWith, screenOfPath, type Location, type OperatorScreen } from '../src/domain/screens';
import type { BookingResult } from '../src/domain/schemas';
import { isDataSection, sectionsFor, type DataChange, type DataSection } from '../src/domain/operatorData';
import { errorText, failure, output, provided } from './shared';

export interface StaffMember { id: number; email: string; name: string; role: 'admin' | 'dispatcher' | 'company'; company_name: string | null }

export interface BoardQuery { tab: BoardTab; q: string; company: string; vehicle: string; status: string }
export interface BoardRow {
  id: number; booking_number: string; status: string; pick_up_date: string; pick_up_time: string; pick_up_address: string;
  drop_off_address: string | null; ride_type: string; company_name: string; category_name: string; passenger_name: string;
  passenger_contact_no: string; total: string; payment_method: string; payment_status: string; driver_name: string | null;
  /** A cancelled card booking with money left to refund (refundDue in src/domain/operatorDesk.ts); absent: none. */
  refund_due?: boolean;
  /** Where the driver's job stands (issue 41), and who declined it last; absent: before issue 41. */
  job_status?: string | null; declined_by?: string | null;
  /** When the pickup is and when the driver was assigned (ISO), for the board's alerts (issue 41 §5). */
  pickup_at?: string; dispatched_at?: string | null;
}
export interface Latest { latest_id: number; count: number }
export interface Board { rows: BoardRow[]; total: number; latest: Latest; /** The settings' alert minutes (issue 41 §5). */ alert_minutes?: AlertMinutes }
export interface Filters { companies: { id: number; company_name: string }[]; vehicles: { id: number; category_name: string }[]; statuses: { value: string; label: string }[] }

export interface TimelineEntry { at: string; kind: string; text: string; by: string | null; detail: string | null }
export interface BookingPage {
  booking: BookingResult;
  desk: {
    status: string; status_label: string; actions: BookingAction[]; breakdown: { label: string; amount: string }[];
    payment: { method: string; status: string; charge_id: string | null; intent_id: string | null; test: boolean; refundable: string | null };
    /** What the booking keeps of its dispatch (before issue 41: the typed name, mobile, vehicle and registration alone). */
    driver: (DriverInput & { colour?: string; licence_number?: string; dispatched_by?: string; dispatched_at?: string }) | null;
    /** What the booking asks of its driver and car (fleetRecords.ts dispatchProblems). */
    needs: DispatchNeeds;
    /** Where the driver's job stands (issue 41): its status in words, and who declined it last. */
    job?: { status: string; label: string; declined_by: string | null } | null;
    cancel_reason: string | null;
    refund: { amount: string; status: string; id: string | null; error: string | null } | null;
  };
  timeline: TimelineEntry[];
}
export interface MailRow {
  id: number; kind: string; to_address: string; cc_address: string | null; subject: string; status: string; attempts: number;
  last_error: string | null; created_at: string; booking_number: string | null;
  /** Issue 41: an e-mail or a text; a text's delivery as reported, and whether its number opted out (STOP). */
  channel?: 'email' | 'sms'; delivery_status?: string | null; delivery_error?: string | null; opted_out?: boolean;
}
export type MailStatus = 'failed' | 'pending' | 'sent';

/** What the office does to a booking, with what its form says. */
export type DeskAction =
  | { kind: 'assignDriver'; assign: AssignInput }
  | { kind: 'complete' } | { kind: 'noShow' }
  | { kind: 'cancel'; cancel: CancelInput }
  | { kind: 'retryRefund' }
  | { kind: 'refund' };

/** What an action answers: which it was and, for a cancellation, how the refund went. */
export interface ActionResult { kind: DeskAction['kind']; refund?: { status: string; error?: string } | null }

/** An API refusal as the machine keeps it: the message, the field it names, and whether the session ended. */
export interface CallError { message: string; field?: string; status?: number }

export type OperatorEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'signIn'; email: string; password: string }
  | { type: 'signOut' }
  | { type: 'board.query'; query: Partial<BoardQuery> }
  | { type: 'board.showNew' }
  | { type: 'latest'; latest: Latest }
  /** A booking changed (a driver's step, an assignment...), in any server process (issue 41 §5). */
  | { type: 'booking.changed'; id: number }
  | { type: 'open'; reference: string }
  | { type: 'action.start'; action: BookingAction | 'retryRefund' }
  | { type: 'action.confirm'; action: DeskAction }
  | { type: 'action.cancel' }
  | { type: 'mail.show'; status: MailStatus }
  | { type: 'mail.retry'; id: number }
  | { type: 'export.download'; from: string; to: string }
  | { type: 'data.show'; section: DataSection }
  | { type: 'data.save'; change: DataChange }
  | { type: 'retry' };

/** The drivers and cars on record the viewer may dispatch (a company's staff: their own), for the assign dialog. */
export interface Records {
  drivers: (DriverRecord & { id: number; company_name: string })[];
  cars: (CarRecord & { id: number; company_name: string; category_name: string })[];
}

/** What a change of the operator's data answers: what was done, and a new member of staff's password, once. */
export interface DataSaved { done: string; password?: string }

export interface OperatorInput { location: Location }

export interface OperatorContext {
  location: Location;
  /** The board is being loaded again in place, because a booking changed or a new one came (no "Loading" shown). */
  quiet: boolean;
  /** Where to go once signed in (the page asked for before the session was found). */
  wanted: Location | null;
  staff: StaffMember | null;
  query: BoardQuery;
  board: Board | null;
  filters: Filters | null;
  /** The newest booking the person has been shown, and how many there were then: newer ones are 'new'. */
  seenId: number | null;
  seenCount: number | null;
  latest: Latest | null;
  reference: string | null;
  page: BookingPage | null;
  /** The action whose confirmation is open. */
  action: BookingAction | 'retryRefund' | null;
  /** The drivers and cars to choose from, loaded as the assign dialog opens. */
  records: Records | null;
  mailStatus: MailStatus;
  mail: MailRow[] | null;
  /** Operator data (administrators): the part on show, as the server lists it. */
  dataSection: DataSection;
  data: unknown;
  /** A new member of staff's password, shown once. */
  password: string | null;
  error: CallError | null;
  notice: string | null;
}

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
const newest = (a: Latest | null, b: Latest): Latest => (a && a.latest_id > b.latest_id ? a : b);

/** The part of the operator data an address names: /operator/data?section=fleet. */
/** The part of the operator data an address asks for, when the role may open it; else the role's first part. */
const sectionOf = (search: string, role: string | undefined): DataSection => {
  const section = new URLSearchParams(search).get('section') ?? '';
  const open = sectionsFor(role);
  return isDataSection(section) && open.includes(section) ? section : open[0];
};
const searchOfSection = (section: DataSection) => (section === 'settings' ? '' : `?section=${section}`);

/** The reference of a booking page's path. */
const referenceOf = (path: string) => decodeURIComponent(/[^/]*$/.exec(path)![0]).toUpperCase();
const ACTION_DONE: Record<DeskAction['kind'], string> = {
  assignDriver: 'Driver and car saved. The passenger has been e-mailed the details.',
  complete: 'Marked as completed.', noShow: 'Marked as a no-show.',
  cancel: 'Booking cancelled. The passenger, the office and the company have been told.',
  retryRefund: 'Refund asked for again.',
  refund: 'Refund made. The passenger has been e-mailed.',
};

const isSessionEnd = (e: unknown) => (e as CallError)?.status === 401;
/** A call's refusal as kept: its message, and the field and status it came with. */
function asCallError(e: unknown): CallError {
  const { field, status } = (typeof e === 'object' && e ? e : {}) as Partial<CallError>;
  return { message: errorText(e), ...(field ? { field } : {}), ...(status ? { status } : {}) };
}

/** Any call answered 401: the session ended, and the console signs out, keeping where it was (`sessionEnded`). */
const SESSION_ENDED = { guard: { type: 'sessionEnded', params: failure }, target: '#operator.signedOut', actions: 'sessionEnded' } as const;
/** A call's other refusals: shown, in the given state. */
const showError = <T extends string>(target: T) => ({ target, actions: { type: 'setError', params: failure } }) as const;

export const operatorMachine = setup({
  types: {
    context: {} as OperatorContext,
    events: {} as OperatorEvent,
    input: {} as OperatorInput,
    meta: {} as { screen?: OperatorScreen },
  },
  actors: {
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
    /** Polls the newest booking every few seconds and sends `latest` (provided by the app; tests send it themselves). */
    watchLatest: fromCallback(() => () => {}),
    /** Hears of every change of a booking this member of staff may see and sends `booking.changed` (provided by the app). */
    watchChanges: fromCallback(() => () => {}),
  },
  actions: {
    setLocation: assign({ location: (_, params: { location: Location }) => params.location }),
    rememberLocation: assign({
      wanted: ({ event }) => (event.type === 'url.changed' && screenOfPath(event.path) !== 'operatorLogin' ? { path: event.path, search: event.search } : null),
    }),
    takeLocation: assign(({ event }) => {
      assertEvent(event, 'url.changed');
      return { location: { path: event.path, search: event.search } };
    }),
    setStaff: assign({ staff: (_, staff: StaffMember) => staff }),
    setError: assign({ error: (_, { error }: { error: unknown }) => asCallError(error), notice: null }),
    clearMessages: assign({ error: null, notice: null }),
    sessionEnded: assign({ staff: null, error: { message: MESSAGES.sessionEnded }, wanted: ({ context }) => context.location, board: null, page: null, mail: null }),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    onBooking: ({ context }) => screenOfPath(context.location.path) === 'operatorBooking',
    onMail: ({ context }) => screenOfPath(context.location.path) === 'operatorMail',
    onExport: ({ context }) => screenOfPath(context.location.path) === 'operatorExport',
    /** Operator data: every part for administrators, the drivers and cars for other staff (sectionsFor). */
    onData: ({ context }) => screenOfPath(context.location.path) === 'operatorData' && sectionsFor(context.staff?.role).length > 0,
    newerThanBoard: ({ context, event }) => event.type === 'latest' && event.latest.latest_id > (context.board?.latest.latest_id ?? 0),
  },
}).createMachine({
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
        booking: {
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
                // This booking changed elsewhere (its driver, another desk): shown as it is now.
                'booking.changed': { guard: ({ context, event }) => context.page?.booking.booking.id === event.id, target: 'loading' },
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
                    const { kind, refund } = event.output;
                    return {
                      action: null, records: null,
                      notice: refund?.status === 'failed' ? null : ACTION_DONE[kind],
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
        },
        mail: {
          meta: { screen: 'operatorMail' },
          entry: { type: 'setLocation', params: ({ context }) => ({ location: locationOfScreen('operatorMail', context.mailStatus === 'failed' ? '' : `?status=${context.mailStatus}`) }) },
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                src: 'loadMail',
                input: ({ context }) => ({ status: context.mailStatus }),
                onDone: { target: 'ready', actions: assign({ mail: ({ event }) => event.output }) },
                onError: [
                  SESSION_ENDED,
                  showError('failed'),
                ],
              },
            },
            ready: { on: { 'mail.retry': { target: 'retrying', actions: 'clearMessages' } } },
            failed: { on: { retry: 'loading' } },
            retrying: {
              tags: 'busy',
              invoke: {
                src: 'retryMail',
                input: ({ event }) => {
                  assertEvent(event, 'mail.retry');
                  return { id: event.id };
                },
                onDone: { target: 'loading', actions: assign({ notice: 'The message will be sent again now.' }) },
                onError: [
                  SESSION_ENDED,
                  showError('loading'),
                ],
              },
            },
          },
        },
        // Operator data (administrators): one part at a time; each change saved, then the part loaded again.
        data: {
          meta: { screen: 'operatorData' },
          entry: [
            assign({ data: null }),
            { type: 'setLocation', params: ({ context }) => ({ location: locationOfScreen('operatorData', searchOfSection(context.dataSection)) }) },
          ],
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                src: 'loadData',
                input: ({ context }) => ({ section: context.dataSection }),
                onDone: { target: 'ready', actions: assign({ data: ({ event }) => event.output }) },
                onError: [
                  SESSION_ENDED,
                  showError('failed'),
                ],
              },
            },
            ready: { on: { 'data.save': { target: 'saving', actions: assign({ error: null, notice: null, password: null }) } } },
            failed: { on: { retry: 'loading' } },
            saving: {
              tags: 'busy',
              invoke: {
                src: 'saveData',
                input: ({ event }) => {
                  assertEvent(event, 'data.save');
                  return { change: event.change };
                },
                onDone: { target: 'loading', actions: assign({ notice: ({ event }) => event.output.done, password: ({ event }) => event.output.password ?? null }) },
                onError: [
                  SESSION_ENDED,
                  showError('ready'),
                ],
              },
            },
          },
        },
        export: {
          meta: { screen: 'operatorExport' },
          entry: { type: 'setLocation', params: () => ({ location: locationOfScreen('operatorExport') }) },
          initial: 'idle',
          states: {
            idle: { on: { 'export.download': { target: 'downloading', actions: 'clearMessages' } } },
            downloading: {
              invoke: {
                src: 'exportCsv',
                input: ({ event }) => {
                  assertEvent(event, 'export.download');
                  return { from: event.from, to: event.to };
                },
                onDone: { target: 'idle', actions: assign({ notice: 'The file has been downloaded.' }) },
                onError: [
                  SESSION_ENDED,
                  showError('idle'),
                ],
              },
            },
          },
        },
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
