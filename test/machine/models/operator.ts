// The model of machines/operator.ts (the office's console, issue 26) that paths are generated from
// (test/machine/modelPaths.ts): the events a test may send, the inputs it starts from, and the facts of the issue
// each state keeps, worked out from the events of the path.
import { expect } from 'vitest';
import { operatorMachine, unseenCount, type Board, type BookingPage, type OperatorEvent, type OperatorInput, type OperatorSnapshot, type StaffMember } from '../../../machines/operator';
import { MESSAGES } from '../../../src/domain/operatorDesk';
import { sectionsFor } from '../../../src/domain/operatorData';
import { screenOfPath } from '../../../src/domain/screens';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';

export const getSession = answers(operatorMachine, 'getSession');
export const signIn = answers(operatorMachine, 'signIn');
export const signOut = answers(operatorMachine, 'signOut');
export const loadBoard = answers(operatorMachine, 'loadBoard');
export const loadFilters = answers(operatorMachine, 'loadFilters');
export const loadBooking = answers(operatorMachine, 'loadBooking');
export const runAction = answers(operatorMachine, 'runAction');
export const loadMail = answers(operatorMachine, 'loadMail');
export const retryMail = answers(operatorMachine, 'retryMail');
export const exportCsv = answers(operatorMachine, 'exportCsv');
export const loadData = answers(operatorMachine, 'loadData');
export const saveData = answers(operatorMachine, 'saveData');
export const loadRecords = answers(operatorMachine, 'loadRecords');
export const SERVICES = ['getSession', 'signIn', 'signOut', 'loadBoard', 'loadFilters', 'loadBooking', 'loadRecords', 'runAction', 'loadMail', 'retryMail', 'exportCsv', 'loadData', 'saveData'];

export const url = (href: string): OperatorEvent => {
  const at = href.indexOf('?');
  return { type: 'url.changed', path: at < 0 ? href : href.slice(0, at), search: at < 0 ? '' : href.slice(at) };
};

export const staff: StaffMember = { id: 1, email: 'ops@albion-executive.co.uk', name: 'Priya Shah', role: 'admin', company_name: null };
export const companyDesk: StaffMember = { id: 2, email: 'dispatch@metrocars.london', name: 'Tom Okafor', role: 'company', company_name: 'Metro Cars London' };
export const REF = 'BK-ABCDEFGH';
export const board: Board = {
  rows: [{
    id: 7, booking_number: REF, status: 'confirmed', pick_up_date: '2030-09-12', pick_up_time: '07:15', pick_up_address: 'Heathrow T5',
    drop_off_address: 'Trafalgar Square', ride_type: 'Q', company_name: 'Metro Cars London', category_name: 'Saloon', passenger_name: 'Oliver Bennett',
    passenger_contact_no: '+447700900123', total: '62.00', payment_method: 'car', payment_status: 'due_in_car', driver_name: null,
  }],
  total: 1, latest: { latest_id: 7, count: 5 },
};
export const page: BookingPage = {
  booking: { booking: { booking_number: REF } } as BookingPage['booking'],
  desk: {
    status: 'confirmed', status_label: 'Confirmed', actions: ['assignDriver', 'cancel'], breakdown: [],
    payment: { method: 'car', status: 'due_in_car', charge_id: null, intent_id: null, test: false, refundable: null },
    driver: null, cancel_reason: null, refund: null,
    needs: { company_id: 3, company_name: 'Metro Cars London', pickup_date: '2030-09-12', passengers: 2, wheelchair: false },
  },
  timeline: [],
};
export const failedMail = {
  id: 3, kind: 'booking_confirmation', to_address: 'oliver.bennett@example.com', cc_address: null, subject: `Booking confirmed: ${REF}`,
  status: 'failed', attempts: 6, last_error: '550 mailbox unavailable', created_at: '12-09-2030 07:00', booking_number: REF,
};
const assignment = { driver_id: '4', car_id: '5' };
/** The drivers and cars on record, as the assign dialog is given them. */
export const records = { drivers: [], cars: [] };
/** A refusal as the console's calls throw it (src/web/views/operator/operatorApi.ts): its message, status and field. */
export const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const ended = refusal(MESSAGES.sessionEnded, { status: 401 });
const conflict = refusal(MESSAGES.notAllowed, { status: 409 });
const invalid = refusal("Dan Price's PHV driver licence expired on Sat 1 Jun 2030, before the pickup on Thu 12 Sep 2030.", { field: 'driver_id', status: 422 });
const down = refusal('We could not reach the booking server. Please check your connection and try again.');

export const EVENTS: ModelEvent<OperatorEvent>[] = [
  url('/operator'),
  url('/operator?tab=upcoming&q=smith'),
  url(`/operator/bookings/${REF}`),
  url('/operator/mail'),
  url('/operator/export'),
  url('/operator/login'),
  // Issue 43: a page run as a child machine, and what it tells the console.
  url('/operator/records?from=2030-09-12&to=2030-09-12'),
  // Issue 44: the corporate accounts and their invoices, each a page run as a child machine.
  url('/operator/accounts'),
  url('/operator/invoices?account=7'),
  url('/operator/privacy'),
  url('/operator/complaints'),
  url('/operator/lost-property?id=7'),
  url('/operator/new-booking'),
  { type: 'page.location', location: { path: '/operator/new-booking', search: '' }, path: '/operator/new-booking' } as ModelEvent<OperatorEvent>,
  { type: 'page.location', location: { path: '/operator/records', search: '?from=2030-09-09&to=2030-09-15' } },
  // The privacy page's own address (it never shows another: no e-mail address reaches the URL); `path` names the event.
  { type: 'page.location', location: { path: '/operator/privacy', search: '' }, path: '/operator/privacy' } as ModelEvent<OperatorEvent>,
  // Issue 43 §3: the registers tell the address of what they show (an entry, the list's filters).
  { type: 'page.location', location: { path: '/operator/complaints', search: '?status=closed' }, path: '/operator/complaints' } as ModelEvent<OperatorEvent>,
  { type: 'page.location', location: { path: '/operator/lost-property', search: '?id=7' }, path: '/operator/lost-property' } as ModelEvent<OperatorEvent>,
  // Issue 44: the Accounts page tells the account it opened, the Invoices page the account whose invoices it shows.
  { type: 'page.location', location: { path: '/operator/accounts', search: '?id=12' }, path: '/operator/accounts' } as ModelEvent<OperatorEvent>,
  { type: 'page.location', location: { path: '/operator/invoices', search: '' }, path: '/operator/invoices' } as ModelEvent<OperatorEvent>,
  { type: 'page.sessionEnded' },
  getSession.done(staff),
  getSession.done(companyDesk),
  getSession.done(null),
  getSession.fails(down),
  { type: 'signIn', email: staff.email, password: 'Albion-Desk-2026' },
  signIn.done(staff),
  signIn.fails(refusal(MESSAGES.signInFailed, { status: 401, field: 'password' })),
  { type: 'signOut' },
  signOut.done(),
  signOut.fails(down),
  loadFilters.done({ companies: [], vehicles: [], statuses: [] }),
  loadFilters.fails(down),
  { type: 'board.query', query: { tab: 'past' } },
  { type: 'board.showNew' },
  { type: 'latest', latest: { latest_id: 9, count: 7 } },
  { type: 'latest', latest: { latest_id: 7, count: 5 } },
  // Issue 41 §5: a booking changed somewhere (this one, another).
  { type: 'booking.changed', id: page.booking.booking.id },
  { type: 'booking.changed', id: page.booking.booking.id + 1000 },
  // The stream opened (again): anything may have changed.
  { type: 'booking.changed', id: 0 },
  loadBoard.done(board),
  loadBoard.fails(ended),
  loadBoard.fails(down),
  { type: 'open', reference: REF },
  loadBooking.done(page),
  loadBooking.fails(refusal(MESSAGES.notFound, { status: 404 })),
  loadBooking.fails(ended),
  loadBooking.fails(down),
  loadBooking.fails(undefined),
  { type: 'action.start', action: 'assignDriver' },
  { type: 'action.start', action: 'complete' },
  { type: 'action.start', action: 'cancel' },
  loadRecords.done(records),
  loadRecords.fails(ended),
  loadRecords.fails(down),
  { type: 'action.confirm', action: { kind: 'assignDriver', assign: assignment } },
  { type: 'action.cancel' },
  runAction.done({ kind: 'assignDriver' }),
  runAction.done({ kind: 'cancel', refund: { status: 'failed', error: 'connect ECONNREFUSED' } }),
  runAction.fails(invalid),
  runAction.fails(conflict),
  runAction.fails(ended),
  { type: 'mail.show', status: 'sent' },
  loadMail.done([]),
  loadMail.done([failedMail]),
  loadMail.fails(ended),
  loadMail.fails(down),
  { type: 'mail.retry', id: 3 },
  retryMail.done({ retried: 3 }),
  retryMail.fails(refusal('This message is not waiting to be retried.', { status: 409 })),
  retryMail.fails(ended),
  { type: 'export.download', from: '2030-09-01', to: '2030-09-30' },
  exportCsv.done(),
  exportCsv.fails(ended),
  exportCsv.fails(down),
  url('/operator/data?section=staff'),
  { type: 'data.show', section: 'fleet' },
  { type: 'data.show', section: 'drivers' },
  loadData.done([]),
  loadData.fails(ended),
  loadData.fails(down),
  { type: 'data.save', change: { kind: 'addStaff', email: 'sam@albion-executive.co.uk', name: 'Sam Lee', role: 'dispatcher' } },
  saveData.done({ done: 'Sam Lee can sign in with the password below.', password: 'Xq7-kP2mZ9rT4wLb' }),
  saveData.fails(refusal('Enter a valid e-mail address.', { status: 422, field: 'email' })),
  saveData.fails(ended),
  { type: 'retry' },
];

export const INPUTS: Record<string, OperatorInput> = {
  'a visit to /operator': { location: { path: '/operator', search: '' } },
  "a link to a booking from the office's e-mail": { location: { path: `/operator/bookings/${REF}`, search: '' } },
  'a visit to /operator/login': { location: { path: '/operator/login', search: '' } },
};

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, answer: { type: string }) => e?.type === answer.type;
const failed = (e: ModelEvent | undefined, service: { fails: (x: unknown) => { type: string } }) => e?.type === service.fails(null).type;
const statusOf = (e: ModelEvent | undefined) => (e as Answer | undefined)?.error?.status;

/** Open on a page run as a child machine (issue 43): the records, the privacy requests. */
const onChildPage = (st: OperatorSnapshot | undefined) => Boolean(st && (st.matches({ signedIn: 'records' }) || st.matches({ signedIn: 'privacy' })
  || st.matches({ signedIn: 'newBooking' }) || st.matches({ signedIn: 'complaints' }) || st.matches({ signedIn: 'lostProperty' })
  || st.matches({ signedIn: 'accounts' }) || st.matches({ signedIn: 'invoices' })));

/** Signed in by the path's events: a session found or a sign-in accepted, not ended since by a 401 or sign-out. */
export function signedIn(trail: Trail<OperatorSnapshot>): boolean {
  let on = false;
  for (const [i, { event: e }] of trail.entries()) {
    // A page run as a child machine found the session ended (heard while that page is open).
    if (e.type === 'page.sessionEnded' && onChildPage(trail[i - 1]?.state)) on = false;
    if ((is(e, getSession.done()) && (e as Answer).output !== null) || is(e, signIn.done())) on = true;
    if (statusOf(e) === 401 && !failed(e, signIn)) on = false;
    if (is(e, signOut.done()) || failed(e, signOut)) on = false;
  }
  return on;
}

/**
 * The page the person is on, or asked for, by the path's events: where the console must be once signed in (a
 * page asked for before, or the one open when the session ended; after the sign-in page or a sign-out, the board).
 */
export function pageOf(trail: Trail<OperatorSnapshot>, input: OperatorInput, role: string | undefined): string {
  let at = input.location.path;
  for (const { event: e } of trail) {
    if (e.type === 'url.changed') at = (e as unknown as { path: string }).path;
    if (e.type === 'data.show' && sectionsFor(role).includes((e as unknown as { section: never }).section)) at = '/operator/data';
    if (e.type === 'open') at = `/operator/bookings/${(e as unknown as { reference: string }).reference}`;
    if (e.type === 'mail.show') at = '/operator/mail';
    if (e.type === 'board.query' || e.type === 'board.showNew') at = '/operator';
    if (is(e, signOut.done()) || failed(e, signOut)) at = '/operator/login';
  }
  // Every member of staff has a part of the operator data (the drivers and cars); the sign-in page leads to the board.
  return at === '/operator/login' || (at === '/operator/data' && sectionsFor(role).length === 0) ? '/operator' : at;
}

/** The last event of this type the person sent. */
const lastOf = <T extends OperatorEvent['type']>(trail: Trail<OperatorSnapshot>, type: T) =>
  trail.findLast((x) => x.event.type === type)?.event as Extract<OperatorEvent, { type: T }> | undefined;

/**
 * Each call asks for what the person gave: the sign-in's e-mail and password, the board's query, the booking on
 * screen and the action confirmed, the mail list's status and the message retried, the data section and its change,
 * the export's days.
 */
export function asksWhatWasGiven(s: OperatorSnapshot, trail: Trail<OperatorSnapshot>) {
  const c = s.context;
  const want: Record<string, () => unknown> = {
    signIn: () => ({ email: lastOf(trail, 'signIn')?.email, password: lastOf(trail, 'signIn')?.password }),
    loadBoard: () => c.query,
    loadBooking: () => ({ reference: c.reference }),
    runAction: () => ({ reference: c.reference, action: lastOf(trail, 'action.confirm')?.action }),
    loadMail: () => ({ status: c.mailStatus }),
    retryMail: () => ({ id: lastOf(trail, 'mail.retry')?.id }),
    loadData: () => ({ section: c.dataSection }),
    saveData: () => ({ change: lastOf(trail, 'data.save')?.change }),
    exportCsv: () => ({ from: lastOf(trail, 'export.download')?.from, to: lastOf(trail, 'export.download')?.to }),
  };
  for (const [service, given] of Object.entries(callsOpen(s))) {
    if (want[service]) expect(given, `${service} is asked for what the person gave`).toEqual(want[service]());
  }
}

/** What the office is told when an action is done (issue 26), by the action's kind. */
const DONE: Record<string, string> = {
  assignDriver: 'Driver and car saved. The passenger has been e-mailed the details.',
  complete: 'Marked as completed.', noShow: 'Marked as a no-show.',
  cancel: 'Booking cancelled. The passenger, the office and the company have been told.',
  retryRefund: 'Refund asked for again.',
};

/** The screen each signed-in page shows, by the state the console is in. */
const PAGES = {
  board: 'operatorBoard', booking: 'operatorBooking', mail: 'operatorMail', export: 'operatorExport', data: 'operatorData', records: 'operatorRecords',
  privacy: 'operatorPrivacy', newBooking: 'operatorNewBooking', complaints: 'operatorComplaints', lostProperty: 'operatorLostProperty',
  accounts: 'operatorAccounts', invoices: 'operatorInvoices',
} as const;

/** The screens the state says it shows (its `meta`). */
const screensOf = (s: OperatorSnapshot) => Object.values(s.getMeta() as Record<string, { screen?: string }>).map((m) => m.screen).filter(Boolean);

/** The mail list asked for by the path: Mail's tab, or the address's `?status=` (failed messages when none). */
function mailAsked(trail: Trail<OperatorSnapshot>, input: OperatorInput): string {
  let status = new URLSearchParams(input.location.search).get('status') || 'failed';
  for (const { event: e } of trail) {
    if (e.type === 'mail.show') status = (e as unknown as { status: string }).status;
    const { path, search } = e as unknown as { path: string; search: string };
    if (e.type === 'url.changed' && path === '/operator/mail') status = new URLSearchParams(search).get('status') || 'failed';
  }
  return status;
}

/**
 * The part of the operator data asked for: its button, or the address's `?section=`, when the role may open it; else
 * the role's first part (an administrator's settings, other staff's drivers).
 */
function sectionAsked(trail: Trail<OperatorSnapshot>, role: string | undefined): string {
  const open: string[] = sectionsFor(role);
  let section = open[0];
  for (const { event: e } of trail) {
    const shown = (e as unknown as { section: string }).section;
    if (e.type === 'data.show' && open.includes(shown)) section = shown;
    const { path, search } = e as unknown as { path: string; search: string };
    if (e.type === 'url.changed' && path === '/operator/data') {
      const asked = new URLSearchParams(search).get('section') ?? '';
      section = open.includes(asked) ? asked : open[0];
    }
  }
  return section;
}

/** The address asked for last (by the input or the address bar), when nothing else has moved the console since. */
function addressAsked(trail: Trail<OperatorSnapshot>, input: OperatorInput): string | null {
  let at: string | null = input.location.path + input.location.search;
  for (const { event: e } of trail) {
    const { path, search } = e as unknown as { path: string; search: string };
    if (e.type === 'url.changed') at = path + search;
    if (['open', 'mail.show', 'data.show', 'board.query', 'board.showNew'].includes(e.type) || is(e, signOut.done()) || failed(e, signOut)) at = null;
  }
  return at;
}

/** What the console keeps from the answers it is given: the filters, the mail list, the operator data. */
function keepsAnswers(s: OperatorSnapshot, last: ModelEvent | undefined) {
  const out = (last as Answer | undefined)?.output;
  if (is(last, loadFilters.done())) expect(s.context.filters).toEqual(out);
  if (is(last, loadMail.done())) expect(s.context.mail).toEqual(out);
  if (is(last, loadData.done())) expect(s.context.data).toEqual(out);
  if (is(last, saveData.done())) expect(s.context.notice).toBe((out as { done: string }).done);
  if (is(last, exportCsv.done())) expect([s.context.notice, s.context.error]).toEqual(['The file has been downloaded.', null]);
}

/** A person's step that the console acts on clears what the last one said (an error, a notice). */
const CLEARING = ['signIn', 'open', 'action.start', 'action.confirm', 'action.cancel', 'mail.retry', 'export.download', 'data.show', 'data.save'];

export function spec(s: OperatorSnapshot, trail: Trail<OperatorSnapshot>, input: OperatorInput) {
  asksWhatWasGiven(s, trail);
  // Nothing the console is told makes it stop: every refusal is shown.
  expect(s.status).toBe('active');
  const last = trail.at(-1)?.event;
  const where = s.context.location.path + s.context.location.search;
  const on = signedIn(trail);
  const checked = trail.some((x) => is(x.event, getSession.done()) || failed(x.event, getSession));

  // Issue 26: nobody is shown the console before the session is known, nor without one.
  if (!checked) {
    expect(s.value).toBe('checking');
    expect(where).toBe(input.location.path + input.location.search);
    return;
  }
  expect(s.context.staff !== null, 'signed in').toBe(on || s.matches('signingOut'));
  if (!on && !s.matches('signingOut')) {
    expect(s.matches('signedOut')).toBe(true);
    expect(where).toBe('/operator/login');
  }
  // A session that ended mid-visit says so, and the console goes back to that page after the next sign-in.
  if (statusOf(last) === 401 && !failed(last, signIn)) {
    expect(s.context.error?.message).toBe(MESSAGES.sessionEnded);
    expect(s.context.wanted).not.toBeNull();
  }
  if (failed(last, signIn)) expect([s.value, s.context.error?.message]).toEqual([{ signedOut: 'idle' }, MESSAGES.signInFailed]);
  // Issue 43: a page run as a child machine shows its address, and its 401 signs the console out, keeping that page.
  const before = trail.at(-2)?.state;
  if (last?.type === 'page.sessionEnded' && onChildPage(before)) {
    expect([s.matches('signedOut'), s.context.error?.message, s.context.wanted]).toEqual([true, MESSAGES.sessionEnded, before!.context.location]);
  }
  if (last?.type === 'page.location' && onChildPage(before)) {
    expect(s.context.location).toEqual((last as Extract<OperatorEvent, { type: 'page.location' }>).location);
  }
  if (last?.type === 'page.location' && !onChildPage(before)) expect(s.context.location).toEqual(before?.context.location);

  // The sign-in page is shown whenever nobody is signed in; each signed-in page is the screen of its address.
  if (s.matches('signedOut')) expect(screensOf(s)).toEqual(['operatorLogin']);
  for (const [state, screen] of Object.entries(PAGES)) {
    if (s.matches({ signedIn: state } as never)) expect([screensOf(s), screenOfPath(s.context.location.path)]).toEqual([[screen], screen]);
  }
  // Signed out, an address typed is kept to open after the sign-in (not the sign-in page itself).
  if (last?.type === 'url.changed' && s.matches('signedOut')) {
    const { path, search } = last as unknown as { path: string; search: string };
    expect(s.context.wanted).toEqual(path === '/operator/login' ? null : { path, search });
  }
  const prev = trail.at(-2)?.state;
  if (last && prev && CLEARING.includes(last.type) && JSON.stringify(prev.value) !== JSON.stringify(s.value)) {
    expect([s.context.error, s.context.notice], `${last.type} clears the messages`).toEqual([null, null]);
  }
  if (last?.type === 'url.changed' && on && prev?.matches('signedIn')) expect([s.context.error, s.context.notice]).toEqual([null, null]);
  keepsAnswers(s, last);

  if (on) {
    // The address asked for, as it was asked (the board keeps its query; the sign-in page leads to the board).
    const asked = addressAsked(trail, input);
    if (asked !== null && s.matches({ signedIn: 'board' }) && screenOfPath(asked.split('?')[0]) === 'operatorBoard') expect(where).toBe(asked);
    // Mail under its status (the failed ones at /operator/mail), the data under its section (the settings at /operator/data).
    if (s.matches({ signedIn: 'mail' })) {
      const status = mailAsked(trail, input);
      expect([s.context.mailStatus, where]).toEqual([status, `/operator/mail${status === 'failed' ? '' : `?status=${status}`}`]);
    }
    if (s.matches({ signedIn: 'data' })) {
      const section = sectionAsked(trail, s.context.staff?.role);
      expect([s.context.dataSection, where]).toEqual([section, `/operator/data${section === 'settings' ? '' : `?section=${section}`}`]);
    }
    // Each screen shows under its own address: the board with its query, a booking under its reference.
    if (s.matches({ signedIn: 'board' })) {
      expect(s.context.location.path).toBe('/operator');
      const p = new URLSearchParams(s.context.location.search);
      expect(p.get('tab') ?? 'today').toBe(s.context.query.tab);
      expect(p.get('q') ?? '').toBe(s.context.query.q);
    }
    if (s.matches({ signedIn: 'booking' })) expect(where).toBe(`/operator/bookings/${s.context.reference}`);
    if (s.matches({ signedIn: 'mail' })) expect(s.context.location.path).toBe('/operator/mail');
    if (s.matches({ signedIn: 'export' })) expect(where).toBe('/operator/export');
    if (s.matches({ signedIn: 'records' })) expect(s.context.location.path).toBe('/operator/records');
    // Issue 43 §3: the registers, each under its own address (an entry's ?id= kept).
    if (s.matches({ signedIn: 'complaints' })) expect(s.context.location.path).toBe('/operator/complaints');
    if (s.matches({ signedIn: 'lostProperty' })) expect(s.context.location.path).toBe('/operator/lost-property');
    // Issue 44: the accounts and their invoices, for every member of staff (a company's staff see their own).
    if (s.matches({ signedIn: 'accounts' })) expect(s.context.location.path).toBe('/operator/accounts');
    if (s.matches({ signedIn: 'invoices' })) expect(s.context.location.path).toBe('/operator/invoices');
    if (last?.type === 'url.changed' && ['/operator/accounts', '/operator/invoices'].includes((last as unknown as { path: string }).path)) {
      expect(s.matches({ signedIn: (last as unknown as { path: string }).path === '/operator/accounts' ? 'accounts' : 'invoices' })).toBe(true);
    }
    // Privacy requests: an administrator's page; anyone else asking for it is shown the board.
    if (s.matches({ signedIn: 'privacy' })) expect([s.context.location.path, s.context.staff?.role]).toEqual(['/operator/privacy', 'admin']);
    if (last?.type === 'url.changed' && (last as unknown as { path: string }).path === '/operator/privacy' && s.context.staff?.role !== 'admin') {
      expect(s.matches({ signedIn: 'privacy' })).toBe(false);
    }
    // Signing in (or finding the session) opens the page asked for; the sign-in page itself leads to the board.
    const opened = trail.findLastIndex((x) => is(x.event, signIn.done()) || is(x.event, getSession.done()));
    const since = trail.slice(opened + 1);
    if (opened >= 0 && !since.some((x) => ['url.changed', 'open', 'board.query', 'mail.show', 'data.show', 'page.location'].includes(x.event.type))) {
      const who = (trail[opened].event as Answer & { output: StaffMember }).output;
      expect(s.context.location.path).toBe(pageOf(trail.slice(0, opened), input, who.role));
    }
  }

  // New bookings: counted against those shown when the board last loaded; Show loads them and counts nothing new.
  const lastLoad = trail.findLastIndex((x) => is(x.event, loadBoard.done()));
  const shown = lastLoad >= 0 ? (trail[lastLoad].event as Answer & { output: Board }).output.latest.count : null;
  // What is known of the newest booking: the newest of the watch's news and the boards' answers (older news changes nothing).
  let newest: { latest_id: number; count: number } | null = null;
  for (const { event: e } of trail) {
    const news = e.type === 'latest' ? (e as Extract<OperatorEvent, { type: 'latest' }>).latest : is(e, loadBoard.done()) ? (e as Answer & { output: Board }).output.latest : null;
    if (news && !(newest && newest.latest_id > news.latest_id)) newest = news;
  }
  if (on && newest && shown !== null && trail.findLastIndex((x) => x.event.type === 'latest') > lastLoad && s.context.seenCount !== null) {
    expect(unseenCount(s)).toBe(Math.max(0, newest.count - s.context.seenCount));
  }
  if (last?.type === 'board.showNew' && on) expect([s.context.seenCount, s.matches({ signedIn: { board: 'loading' } })]).toEqual([null, true]);
  // The board, once loaded, knows the newest booking it showed (rows after it are marked new).
  if (is(last, loadBoard.done()) && on) expect(s.context.seenId).not.toBeNull();
  // News of a booking newer than the board's loads it again in place; news of none leaves it as it is.
  if (last?.type === 'latest' && prev?.matches({ signedIn: { board: 'ready' } })) {
    const newer = (last as Extract<OperatorEvent, { type: 'latest' }>).latest.latest_id > prev.context.board!.latest.latest_id;
    expect(s.matches({ signedIn: { board: newer ? 'loading' : 'ready' } }), newer ? 'a newer booking reloads the board' : 'nothing newer: the board stays').toBe(true);
  }

  // Issue 41 §5: a change heard while the board rests, or loads, loads it (again) quietly: no "Loading" word, and a
  // miss keeps the board as it was. The booking open loads again when it is the one that changed.
  if (last?.type === 'booking.changed' && prev) {
    const { id } = last as Extract<OperatorEvent, { type: 'booking.changed' }>;
    if (prev.matches({ signedIn: { board: 'ready' } })) {
      expect([s.value, s.context.quiet]).toEqual([{ signedIn: { board: 'loading' } }, true]);
    } else if (prev.matches({ signedIn: { board: 'loading' } })) {
      expect([s.value, s.context.quiet]).toEqual([{ signedIn: { board: 'loading' } }, prev.context.quiet]);
    } else if (prev.matches({ signedIn: { booking: 'ready' } })) {
      expect(s.value).toEqual({ signedIn: { booking: id === page.booking.booking.id || id === 0 ? 'loading' : 'ready' } });
    } else {
      expect(s.value).toEqual(prev.value);
    }
  }
  if (prev?.matches({ signedIn: { board: 'loading' } }) && prev.context.quiet && prev.context.board && failed(last, loadBoard) && statusOf(last) !== 401) {
    expect([s.value, s.context.board, s.context.error, s.context.quiet]).toEqual([{ signedIn: { board: 'ready' } }, prev.context.board, prev.context.error, false]);
  }
  if (s.matches({ signedIn: 'board' }) && s.context.quiet) expect(s.matches({ signedIn: { board: 'loading' } })).toBe(true);

  // An action waits for its confirmation; a refusal naming a field keeps the form open with it; someone else's
  // change (409) reloads the booking with the message; a refund that failed says so.
  if (is(last, runAction.done())) {
    const out = (last as Answer & { output: { refund?: { status: string } } }).output;
    expect(s.matches({ signedIn: { booking: 'loading' } })).toBe(true);
    if (out.refund?.status === 'failed') expect([s.context.error?.message, s.context.notice]).toEqual([expect.stringMatching(/refund failed/), null]);
    // The server's own words where it gives them (issue 44's change of charge: the note it issued).
    else expect([s.context.notice, s.context.error]).toEqual([(out as { done?: string }).done ?? DONE[(out as { kind: string }).kind], null]);
  }
  if (failed(last, runAction) && statusOf(last) === 422) expect([s.value, s.context.error?.field]).toEqual([{ signedIn: { booking: 'confirming' } }, 'driver_id']);
  if (failed(last, runAction) && statusOf(last) === 409) {
    expect([s.value, s.context.action, s.context.error?.message]).toEqual([{ signedIn: { booking: 'loading' } }, null, MESSAGES.notAllowed]);
  }
  if (failed(last, loadBooking) && statusOf(last) === 404) expect(s.value).toEqual({ signedIn: { booking: 'notFound' } });
  if (last?.type === 'action.cancel' && prev?.matches({ signedIn: { booking: 'confirming' } })) {
    expect([s.value, s.context.action, s.context.error]).toEqual([{ signedIn: { booking: 'ready' } }, null, null]);
  }
  if (s.matches({ signedIn: { booking: 'confirming' } })) {
    expect(s.context.action === 'retryRefund' || s.context.page?.desk.actions.includes(s.context.action!)).toBe(true);
  }
  if (last?.type === 'action.start' && s.context.page && !s.context.page.desk.actions.includes((last as unknown as { action: never }).action)) {
    expect(s.matches({ signedIn: { booking: 'confirming' } })).toBe(false);
  }
  if (is(last, retryMail.done())) expect(s.context.notice).toBe('The message will be sent again now.');
  // Operator data: each role sees only its parts (an administrator every one, other staff the drivers and cars).
  if (s.matches({ signedIn: 'data' })) {
    expect(sectionsFor(s.context.staff?.role)).toContain(s.context.dataSection);
    expect(s.context.location.path).toBe('/operator/data');
  }
  // The driver and car are chosen from the record as it stands: loaded as the dialog opens, a failure shown on the page.
  if (last?.type === 'action.start' && (last as unknown as { action: string }).action === 'assignDriver' && prev?.matches({ signedIn: { booking: 'ready' } })
    && prev.context.page?.desk.actions.includes('assignDriver')) {
    expect([s.value, s.context.records]).toEqual([{ signedIn: { booking: 'loadingRecords' } }, null]);
  }
  if (is(last, loadRecords.done())) expect([s.value, s.context.records]).toEqual([{ signedIn: { booking: 'confirming' } }, records]);
  if (failed(last, loadRecords) && statusOf(last) !== 401) expect([s.value, s.context.action, s.context.error?.message]).toEqual([{ signedIn: { booking: 'ready' } }, null, expect.any(String)]);
  if (is(last, saveData.done())) expect([s.value, s.context.password]).toEqual([{ signedIn: { data: 'loading' } }, 'Xq7-kP2mZ9rT4wLb']);
  if (failed(last, saveData) && statusOf(last) === 422) expect([s.value, s.context.error?.field, s.context.password]).toEqual([{ signedIn: { data: 'ready' } }, 'email', null]);
  if (is(last, signOut.done()) || failed(last, signOut)) expect([s.context.staff, s.context.wanted]).toEqual([null, null]);
}

/**
 * Issue 26's console: the sign-in form; on every signed-in page the bar's Sign out, Mail and (for an administrator)
 * Operator data; the board's filters, its 'Show' of new bookings and its rows; a booking's action buttons, their
 * dialog's Confirm and Cancel; Retry on mail; the data forms; the export's Download; 'Try again' after a failed load.
 */
export function offers(s: OperatorSnapshot): ModelEvent<OperatorEvent>[] {
  if (s.matches({ signedOut: 'idle' })) return [{ type: 'signIn', email: staff.email, password: 'Albion-Desk-2026' }];
  if (!s.matches('signedIn')) return [];
  const c = s.context;
  const out: ModelEvent<OperatorEvent>[] = [{ type: 'signOut' }, { type: 'mail.show', status: 'sent' }];
  if (c.staff?.role === 'admin') out.push({ type: 'data.show', section: 'fleet' });
  out.push({ type: 'data.show', section: 'drivers' });
  const tryAgain = ['board', 'booking', 'mail', 'data'].some((page) => s.matches({ signedIn: { [page]: 'failed' } } as never));
  if (tryAgain) out.push({ type: 'retry' });
  if (s.matches({ signedIn: { board: 'ready' } })) out.push({ type: 'board.query', query: { tab: 'past' } }, { type: 'board.showNew' }, { type: 'open', reference: REF });
  if (s.matches({ signedIn: { booking: 'ready' } })) {
    for (const action of c.page?.desk.actions ?? []) out.push({ type: 'action.start', action } as ModelEvent<OperatorEvent>);
  }
  if (s.matches({ signedIn: { booking: 'confirming' } })) out.push({ type: 'action.cancel' }, { type: 'action.confirm', action: { kind: 'assignDriver', assign: assignment } });
  if (s.matches({ signedIn: { mail: 'ready' } })) out.push({ type: 'mail.retry', id: 3 });
  if (s.matches({ signedIn: { data: 'ready' } })) {
    out.push({ type: 'data.save', change: { kind: 'addStaff', email: 'sam@albion-executive.co.uk', name: 'Sam Lee', role: 'dispatcher' } });
  }
  if (s.matches({ signedIn: { export: 'idle' } })) out.push({ type: 'export.download', from: '2030-09-01', to: '2030-09-30' });
  return out;
}

export const model: Model<typeof operatorMachine> = {
  name: 'operator machine',
  // Issue 41: the assign dialog's record loading, and every role's part of the operator data (the drivers and cars).
  maxStates: 12_000,
  machine: operatorMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([
    s.value, s.context.location, s.context.wanted, s.context.staff?.id ?? null, s.context.query, s.context.board?.total ?? null,
    s.context.seenCount, s.context.latest, s.context.reference, s.context.page?.desk.status ?? null, s.context.action,
    s.context.mailStatus, s.context.mail?.length ?? null, s.context.error?.message ?? null, s.context.notice,
    s.context.dataSection, s.context.data === null, s.context.password, s.context.staff?.role ?? null, s.context.quiet,
  ]),
  facts: spec,
  factsTitle: "issue 26's console: sign-in, addresses, new bookings and actions",
  offers,
  deciding: ['getSession', 'signIn', 'signOut', 'loadRecords', 'runAction', 'retryMail', 'saveData'],
  services: SERVICES,
  // Five steps from the office's link to a booking (its action's answer is the fifth: session, page, action, confirm,
  // answer); four from the others, which reach every other transition within them. Five from every input walked 29,000
  // states and checked 148,000 steps, a minute of every run and of each of the console's mutants; this walks 13,000.
  depth: (name) => (name === "a link to a booking from the office's e-mail" ? 5 : 4),
  // A page tells the console an address of its own page: the Records page a range of days, the privacy page only its
  // own path.
  allows: (s, e) => e.type !== 'page.location' || (e as Extract<OperatorEvent, { type: 'page.location' }>).location.path === s.context.location.path,
};
