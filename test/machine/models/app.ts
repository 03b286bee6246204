// The model of machines/app.ts that paths are generated from (test/machine/modelPaths.ts): the events a
// test may send, the inputs it starts from, and the SPEC facts each state keeps. Replayed on the machine by
// ../app.model.test.ts, and in Chromium against the real server by test/paths.
import { expect } from 'vitest';
import { appMachine, areaOf, locationOf, type AppEvent, type AppInput, type AppSnapshot } from '../../../machines/app';
import { bookingMachine } from '../../../machines/booking';
import { accountMachine, type Session } from '../../../machines/account';
import { contactMachine } from '../../../machines/contact';
import { operatorMachine, type StaffMember } from '../../../machines/operator';
import { manageMachine } from '../../../machines/manage';
import { driverMachine, type DriverMember } from '../../../machines/driver';
import { fromPromise } from 'xstate';
import type { Area, Location } from '../../../src/domain/screens';
import { isBusy } from '../../../machines/shared';
import type { Settings } from '../../../src/domain/settings';
import type { PassengerLoginResponse } from '../../../src/domain/schemas';
import type { AnyEventObject } from 'xstate';
import { answers, toChild, type Answered, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { bookingForm, passenger, prices, session, settings } from '../fixtures';

export const loadSettings = answers(appMachine, 'loadSettings');
export const calculatePrice = answers(bookingMachine, 'calculatePrice');
export const login = answers(accountMachine, 'login');
export const validateToken = answers(accountMachine, 'validateToken');
export const logout = answers(accountMachine, 'logout');

export const url = (href: string): AppEvent => {
  const at = href.indexOf('?');
  return { type: 'url.changed', path: at < 0 ? href : href.slice(0, at), search: at < 0 ? '' : href.slice(at) };
};
/** The operator's settings as the server has them now (the stored ones are older). */
export const loaded: Settings = { ...settings, CORPORATE_LOGIN: 'enable', Company_Name: 'Test Cars Ltd' };
export const loginOk: PassengerLoginResponse = { success: true, message: 'Signed in', access_token: 'token-new', passenger };

/**
 * The console's code, as OperatorArea hands it over once its chunk has loaded: the real machine, its session check
 * left unanswered (the console's own model, ./operator.ts, walks the rest). Named in the paths' text, not spelt out.
 */
export const consoleLoaded: AppEvent = {
  type: 'area.loaded',
  area: 'operator',
  logic: Object.assign(operatorMachine.provide({ actors: { getSession: fromPromise<StaffMember | null, void>(() => new Promise<null>(() => {})) } }), {
    toJSON: () => 'the console',
  }),
};

/** A passenger's booking page's code (issue 27), handed over the same way: its key never found, so it waits. */
export const manageLoaded: AppEvent = {
  type: 'area.loaded',
  area: 'manage',
  logic: Object.assign(manageMachine.provide({ actors: { readKey: fromPromise<string | null, { reference: string }>(() => new Promise<null>(() => {})) } }), {
    toJSON: () => 'the manage page',
  }),
};

/** A driver's page's code (issue 41 §2), handed over the same way: its session check left unanswered. */
export const driverLoaded: AppEvent = {
  type: 'area.loaded',
  area: 'driver',
  logic: Object.assign(driverMachine.provide({ actors: { getSession: fromPromise<DriverMember | null, void>(() => new Promise<null>(() => {})) } }), {
    toJSON: () => "the driver's page",
  }),
};

export const EVENTS: ModelEvent<AppEvent>[] = [
  loadSettings.done(loaded),
  loadSettings.fails(new Error('offline')),
  url('/bookings'),
  url('/my-account'),
  url('/login'),
  url('/login?redirect=%2Fquotationview'),
  url('/'),
  url('/no-such-page'),
  url('/quotationview'),
  url('/contactus'),
  url('/OurFleet'),
  url('/operator'),
  url('/operator/bookings/BK-ABCDEFGH'),
  consoleLoaded,
  url('/manage/BK-ABCDEFGH'),
  url('/manage'),
  manageLoaded,
  url('/driver'),
  driverLoaded,
  toChild('booking', { type: 'home.submit', bookingType: 'milleage', form: bookingForm }),
  calculatePrice.done({ prices, trip: null }),
  toChild('account', { type: 'login.submit', email: 'amelia@example.com', password: 'secret-1' }),
  login.done(loginOk),
  validateToken.done(true),
  toChild('account', { type: 'logout' }),
  logout.fails(new Error('Network down')),
];

export const INPUTS: Record<string, AppInput> = {
  'a first visit to /': { location: { path: '/', search: '' }, stored: {}, session: null },
  'a signed-in passenger opening /bookings, settings stored': {
    location: { path: '/bookings', search: '' }, stored: { settings }, session,
  },
  // Decision 30: the server sends the settings with the page; nothing is fetched before the first screen.
  'a visit to / with the settings in the page': {
    location: { path: '/', search: '' }, stored: {}, session: null, settings: loaded,
  },
};

export const services = (answered: Answered) => ({
  ...answered('loadSettings'),
  booking: bookingMachine.provide({ actors: answered('calculatePrice', 'checkEmail', 'createBooking', 'sendQuote', 'forgotPassword') as never }),
  account: accountMachine.provide({ actors: answered('login', 'validateToken', 'fetchBookings', 'updateProfile', 'logout') as never }),
  contact: contactMachine.provide({ actors: answered('sendContact') as never }),
});

/** What a step shows, read when it happens (the app's snapshot only references its children). */
export interface Seen {
  area: Area | null;
  location: Location | null;
  busy: boolean;
  wizard: { session: Session | null; settings: Settings } | null;
}
export const view = (s: AppSnapshot): Seen => {
  const booking = s.context.booking?.getSnapshot();
  return {
    area: areaOf(s),
    location: locationOf(s, booking, s.context.account?.getSnapshot()),
    busy: isBusy(s.context.booking) || isBusy(s.context.account) || isBusy(s.context.areas.operator ?? null) || isBusy(s.context.areas.manage ?? null)
      || isBusy(s.context.areas.driver ?? null),
    wizard: booking ? { session: booking.context.session, settings: booking.context.settings } : null,
  };
};

// --- SPEC facts, from the events of the path -------------------------------------------------------------------

/** SPEC 2 'Screens and routes': the corporate screens; every other path belongs to the wizard. */
export const ACCOUNT_PATHS = ['/login', '/bookings', '/my-account'];
export const WIZARD_PATHS = ['/', '/home', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/checkout',
  '/stripecheckout', '/paymentSuccessView', '/quoteView', '/forgot_password'];
/** The pages around the wizard (SPEC 2 /contactus, /ourfleet; the terms, privacy and accessibility pages). */
export const SITE_PATHS = ['/contactus', '/ourfleet', '/terms-and-conditions', '/privacy-policy', '/accessibility'];
export const areaFor = (path: string) => {
  const p = path.toLowerCase();
  return ACCOUNT_PATHS.includes(p) ? 'account' : SITE_PATHS.includes(p) ? 'site' : isOperatorPath(p) ? 'operator' : isManagePath(p) ? 'manage'
    : isDriverPath(p) ? 'driver' : 'wizard';
};
/** Issue 27: a passenger's booking (/manage/BK-...) and Find my booking (/manage). */
export const isManagePath = (p: string) => p === '/manage' || /^\/manage\/[^/]+$/.test(p);
/** Issue 41 §2: a driver's page (/driver, /driver/jobs) and a job (/driver/jobs/BK-...). */
export const isDriverPath = (p: string) => p === '/driver' || p === '/driver/jobs' || /^\/driver\/jobs\/[^/]+$/.test(p);
/** Issue 26: the console's pages, /operator and below. */
export const isOperatorPath = (p: string) => p === '/operator' || p.startsWith('/operator/');
export type Answer = { type: string; output?: unknown; error?: Error };

/** Where the visitor is: the last location asked for while nothing was waiting, or where the account sent them. */
export function expectedLocation(trail: Trail<AppSnapshot>, input: AppInput): Location {
  let at = input.location;
  trail.forEach((step, i) => {
    const before = trail[i - 1]?.view as Seen | undefined;
    const e = step.event as AnyEventObject;
    if (e.type === 'url.changed' && !before?.busy) at = { path: e.path, search: e.search };
    for (const told of step.effects.fromChildren) if (told.type === 'navigate') at = { path: told.path, search: told.search };
  });
  return at;
}

export function spec(s: AppSnapshot, trail: Trail<AppSnapshot>, input: AppInput) {
  const seen = view(s);
  const last = trail.at(-1);
  const settingsAnswer = trail.find((x) => x.event.type === loadSettings.done().type || x.event.type === loadSettings.fails(null).type);

  // SPEC 4 'Settings': the loading overlay (no screen, no address to show) until the settings arrive.
  if (!settingsAnswer && !input.settings) {
    expect([s.value, seen.area, seen.location]).toEqual(['loading', null, null]);
    return;
  }
  expect(seen.area).not.toBeNull();
  const answer = settingsAnswer?.event as Answer | undefined;
  if (!answer) {
    // Decision 30: settings sent with the page are used at once; none is fetched.
    expect(seen.wizard!.settings).toEqual(input.settings);
    expect(s.context.settingsError).toBeNull();
  } else if ('output' in answer) {
    // The wizard works with the settings just loaded, and they are stored (SPEC 7 'setting').
    expect(seen.wizard!.settings).toEqual(loaded);
    expect(settingsAnswer!.effects.actions).toContainEqual({ type: 'storeSettings', params: { settings: loaded } });
  } else {
    // SPEC 8: a failed fetch is kept, the stored settings stay in use, and the app still starts.
    expect(s.context.settingsError).toBe(answer.error!.message);
    expect(seen.wizard!.settings).toEqual(input.stored.settings ?? {});
    expect(settingsAnswer!.effects.actions.filter((a) => a.type === 'storeSettings')).toEqual([]);
  }

  // SPEC 2: each location goes to the area that owns it; a change while a child waits for an answer is ignored.
  const at = expectedLocation(trail, input);
  expect(s.context.location).toEqual(at);
  expect(seen.area).toBe(areaFor(at.path));
  if (seen.area === 'account') expect(ACCOUNT_PATHS).toContain(seen.location?.path);
  if (seen.area === 'wizard') expect(WIZARD_PATHS).toContain(seen.location?.path);
  // A page of the site shows under its own spelling, and its contact form is running (only there).
  if (seen.area === 'site') expect(seen.location).toEqual({ path: at.path.toLowerCase(), search: '' });
  expect(s.children.contact !== undefined).toBe(seen.area === 'site');
  // Issue 26: the console runs once its code has been handed over on one of its pages, and stays for the visit; until
  // then (and while it checks the session) the address bar keeps the page asked for.
  // Issue 27: so does a passenger's booking page, on one of its own pages; issue 41, a driver's page.
  for (const area of ['operator', 'manage', 'driver'] as const) {
    const handedOver = trail.some((x, i) => x.event.type === 'area.loaded' && (x.event as unknown as { area: string }).area === area
      && (trail[i - 1]?.view as Seen | undefined ?? view(s)).area === area);
    expect(s.context.areas[area] !== undefined, area).toBe(handedOver);
  }
  // The console and a driver's page keep the address asked for while they check the session.
  if (seen.area === 'operator' || seen.area === 'driver') expect(seen.location).toEqual(at);
  // The manage page shows its own spelling: /manage, or /manage/ and the reference in capitals.
  if (seen.area === 'manage') expect(seen.location).toEqual(s.context.areas.manage ? { path: at.path.replace(/[^/]+$/, (r) => (at.path === '/manage' ? r : r.toUpperCase())), search: '' } : at);
  const before = trail.at(-2)?.view as Seen | undefined;
  if (last?.event.type === 'url.changed') {
    if (before?.busy) expect([seen.area, seen.location]).toEqual([before.area, before.location]);
    // Any other path redirects to /, and / is home.
    else if (areaFor(at.path) === 'wizard' && !WIZARD_PATHS.includes(at.path) || at.path === '/') {
      expect(seen.location).toEqual({ path: '/', search: '' });
    }
  }

  // The session the account reports is stored (passenger_token, passenger_corporate_details) and reaches the wizard.
  const told = trail.flatMap((x) => x.effects.fromChildren).filter((e) => e.type === 'session.changed');
  const stored = trail.flatMap((x) => x.effects.actions).filter((a) => a.type === 'storeSession');
  expect(stored).toEqual(told.map((e) => ({ type: 'storeSession', params: { session: e.session } })));
  const now: Session | null = told.length ? told.at(-1)!.session : input.session;
  expect([s.context.session, seen.wizard!.session]).toEqual([now, now]);
}

/**
 * SPEC 2: once the settings are known, the menu's links go where they say unless a step waits for its answer (the
 * address bar is held then); a lazy area's code arriving starts it.
 */
export function offers(s: AppSnapshot): ModelEvent<AppEvent>[] {
  if (!s.matches('ready')) return [];
  const out: ModelEvent<AppEvent>[] = [];
  if (!view(s).busy) out.push(url(s.context.location.path === '/contactus' ? '/' : '/contactus'));
  if (s.matches({ ready: 'operator' }) && !s.context.areas.operator) out.push(consoleLoaded);
  if (s.matches({ ready: 'manage' }) && !s.context.areas.manage) out.push(manageLoaded);
  if (s.matches({ ready: 'driver' }) && !s.context.areas.driver) out.push(driverLoaded);
  return out;
}

export const model: Model<typeof appMachine> = {
  name: 'app machine',
  machine: appMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => {
    const { booking, account, areas: { operator, manage, driver } } = s.context;
    return JSON.stringify([
      s.value, view(s), s.context.location, s.context.session?.token ?? null, s.context.settingsError,
      booking?.getSnapshot().value ?? null, account?.getSnapshot().value ?? null, operator?.getSnapshot().value ?? null,
      manage?.getSnapshot().value ?? null, driver?.getSnapshot().value ?? null,
    ]);
  },
  view,
  facts: spec,
  factsTitle: "SPEC 2's routes and the shared session",
  offers,
  services,
  actions: ['storeSettings', 'storeSession'],
  describeState: (s) => {
    const v = s.value as string | Record<string, string>;
    const { location: where, busy } = view(s);
    return (typeof v === 'string' ? v : Object.entries(v).map(([k, x]) => `${k}.${x}`).join(', '))
      + (where ? ` at ${where.path}${where.search}` : '') + (busy ? ' (busy)' : '');
  },
  walk: 'system',
  depth: () => 4,
};
