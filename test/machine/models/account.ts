// The model of machines/account.ts that paths are generated from (test/machine/modelPaths.ts): the events a
// test may send, the inputs it starts from, and the SPEC facts each state keeps. Replayed on the machine by
// ../account.model.test.ts, and in Chromium against the real server by test/paths.
import { expect } from 'vitest';
import { accountLocation, accountScreen } from '../../../machines/accountLocation';
import { accountMachine, type AccountEvent, type AccountInput, type AccountPage, type AccountSnapshot, type Session } from '../../../machines/account';
import { screenOfPath } from '../../../src/domain/screens';
import { EMAIL_TAKEN, INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED, SESSION_ENDED, SIGN_IN_FAILED } from '../../../src/domain/messages';
import type { PassengerLoginResponse, PassengerProfile } from '../../../src/domain/schemas';
import { answered, answers, timePasses, type Model, type ModelEvent, type Step, type Trail } from '../modelPaths';
import { passenger, session } from '../fixtures';

export const login = answers(accountMachine, 'login');
export const validateToken = answers(accountMachine, 'validateToken');
export const fetchBookings = answers(accountMachine, 'fetchBookings');
export const updateProfile = answers(accountMachine, 'updateProfile');
export const logout = answers(accountMachine, 'logout');
export const SERVICES = ['login', 'validateToken', 'fetchBookings', 'updateProfile', 'logout'];

/**
 * Issue 44: a page's machine (Journeys, Invoices) as its view hands it over: here a stand-in that runs until the test
 * ends it (`pageEnded`, as a page whose call was answered 401 ends), recording the input it was started with.
 */
const { journeysPage, invoicesPage } = answered('journeysPage', 'invoicesPage');
export const pageLoaded = (screen: AccountPage): AccountEvent => ({
  type: 'page.loaded', screen,
  logic: Object.assign(screen === 'journeys' ? journeysPage : invoicesPage, { toJSON: () => `the ${screen} page` }),
});
/** The page ends: one of its calls was answered 401 (its output says the session has ended). */
export const pageEnded: ModelEvent<AccountEvent> = { type: 'xstate.done.actor.page', output: { sessionEnded: true } };
export const isPageEnd = (e: ModelEvent | undefined) => e?.type === pageEnded.type;
const PAGE_PATHS: Record<AccountPage, string> = { journeys: '/bookings/journeys', invoices: '/bookings/invoices' };

export const url = (href: string): AccountEvent => {
  const at = href.indexOf('?');
  return { type: 'url.changed', path: at < 0 ? href : href.slice(0, at), search: at < 0 ? '' : href.slice(at) };
};
export const credentials = { email: 'amelia@example.com', password: 'secret-1' };
export const loginOk: PassengerLoginResponse = { success: true, message: 'Signed in', access_token: 'token-new', passenger };
export const loginRefused: PassengerLoginResponse = { success: false, message: 'Invalid email or password' };
export const updated: PassengerProfile = { ...passenger, passenger_name: 'Amelia R. Hart', passenger_contact_no: '+44 770 090 999' };
export const profile = { name: updated.passenger_name, email: updated.passenger_email, phone: updated.passenger_contact_no };

export const EVENTS: ModelEvent<AccountEvent>[] = [
  url('/login'),
  url('/login?redirect=%2Fbookings'),
  url('/login?redirect=%2Fmy-account'),
  url('/login?redirect=%2Fquotationview'),
  // An off-site target (//evil.example) must not be followed after signing in.
  url('/login?redirect=%2F%2Fevil.example'),
  url('/bookings'),
  url('/bookings?page=2'),
  url('/my-account'),
  // Issue 44: Journeys and Invoices, pages run as child machines once their views hand them over.
  url('/bookings/journeys'),
  url('/bookings/invoices'),
  url('/login?redirect=%2Fbookings%2Finvoices'),
  pageLoaded('journeys'),
  pageLoaded('invoices'),
  pageEnded,
  { type: 'login.submit', ...credentials },
  login.done(loginOk),
  login.done(loginRefused),
  login.fails(new Error(SIGN_IN_FAILED)),
  login.fails(new Error('Too many sign-in attempts. Try again in 15 minutes.')),
  validateToken.done(true),
  validateToken.done(false),
  validateToken.fails(new Error('Network down')),
  fetchBookings.done([]),
  fetchBookings.done([{ booking_number: 'BK-ABCDEFGH' }]),
  fetchBookings.fails(new Error(SESSION_ENDED)),
  fetchBookings.fails(new Error(SIGN_IN_FAILED)),
  { type: 'bookings.retry' },
  { type: 'profile.save', profile },
  updateProfile.done(updated),
  updateProfile.fails(new Error(SESSION_ENDED)),
  updateProfile.fails(new Error(EMAIL_TAKEN)),
  { type: 'message.dismissed' },
  { type: 'logout' },
  logout.done(),
  logout.fails(new Error('Network down')),
  timePasses(accountMachine, 'bookings'),
  timePasses(accountMachine, 'myAccount.editing'),
  timePasses(accountMachine, 'journeys'),
  timePasses(accountMachine, 'invoices'),
];

export const INPUTS: Record<string, AccountInput> = {
  'a visitor with no stored token': { session: null },
  'a passenger with a stored token': { session },
};

// --- SPEC facts, from the events of the path -------------------------------------------------------------------

export type Answer = { type: string; output?: unknown; error?: Error };
export const is = (e: ModelEvent | undefined, answer: { type: string }) => e?.type === answer.type;
export const failedWith = (e: ModelEvent | undefined, service: { fails: (x: unknown) => { type: string } }, message?: string) =>
  e?.type === service.fails(null).type && (message === undefined || (e as Answer).error?.message === message);
export const signedInBy = (e: ModelEvent) => (is(e, login.done()) && (e as Answer & { output: PassengerLoginResponse }).output.success)
  || (is(e, validateToken.done()) && (e as Answer).output === true);
export const isProtected = (href: string) => ['bookings', 'myAccount', 'journeys', 'invoices'].includes(screenOfPath(href.split('?')[0]) ?? '');
/** SPEC 2 'Route guard': a redirect target is a path on this site, never another host. */
export const onSite = (raw: string | null): raw is string => !!raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.includes('\\');
export const location = (href: string) => {
  const at = href.indexOf('?');
  return { path: at < 0 ? href : href.slice(0, at), search: at < 0 ? '' : href.slice(at) };
};

/** Where signing in should take the visitor (the `?redirect=` of /login), by the events so far. */
export function returnTarget(trail: Trail<AccountSnapshot>): string | null {
  let target: string | null = null;
  let page: AccountPage | null = null;
  for (const { event: e } of trail) {
    if (e.type === 'page.loaded') page = (e as Extract<AccountEvent, { type: 'page.loaded' }>).screen;
    // A page that ended (its call answered 401) is the one to come back to.
    if (isPageEnd(e) && page) target = PAGE_PATHS[page];
    if (e.type === 'url.changed') {
      const { path, search } = e as Extract<AccountEvent, { type: 'url.changed' }>;
      if (screenOfPath(path) !== 'login') target = path + search;
      else {
        const raw = new URLSearchParams(search).get('redirect');
        target = onSite(raw) ? raw : null;
      }
    }
    // An ended session (401) keeps the page that was open.
    if (failedWith(e, fetchBookings, SESSION_ENDED)) target = '/bookings';
    if (failedWith(e, updateProfile, SESSION_ENDED)) target = '/my-account';
  }
  return target;
}

/** The session the app was last told about (and stores), or the one it started with. */
export function sessionTold(trail: Trail<AccountSnapshot>, input: AccountInput): Session | null {
  const told = trail.flatMap((s) => s.effects.toParent).filter((e) => e.type === 'session.changed').at(-1);
  return told ? (told.session as Session | null) : input.session;
}

/** What the app must hear on this step (SPEC 2 'Route guard', SPEC 4 'Sign-in'). */
export function expectedToParent(step: Step<AccountSnapshot>, before: Trail<AccountSnapshot>, input: AccountInput) {
  const e = step.event;
  const ended = { type: 'session.changed', session: null };
  if (e.type === 'url.changed') {
    const { path, search } = e as Extract<AccountEvent, { type: 'url.changed' }>;
    // No stored token: the stored session is removed and the visitor goes to sign in.
    return isProtected(path + search) && sessionTold(before, input) === null ? [ended] : [];
  }
  if (is(e, validateToken.done()) || failedWith(e, validateToken)) return signedInBy(e) ? [] : [ended];
  if (failedWith(e, fetchBookings, SESSION_ENDED) || failedWith(e, updateProfile, SESSION_ENDED) || isPageEnd(e)) return [ended];
  if (is(e, login.done()) && signedInBy(e)) {
    const target = returnTarget(before);
    const started = { type: 'session.changed', session: { token: loginOk.access_token, passenger: loginOk.passenger } };
    // A target outside the account area is left to the app.
    return target && !isProtected(target) ? [started, { type: 'navigate', ...location(target) }] : [started];
  }
  if (is(e, updateProfile.done())) {
    return [{ type: 'session.changed', session: { token: sessionTold(before, input)!.token, passenger: (e as Answer).output } }];
  }
  // SPEC 4: logout removes the token and details and goes to /, even if the call fails.
  if (is(e, logout.done()) || failedWith(e, logout)) return [ended, { type: 'navigate', path: '/', search: '' }];
  return [];
}

export function spec(s: AccountSnapshot, trail: Trail<AccountSnapshot>, input: AccountInput) {
  const where = accountLocation(s);
  const last = trail.at(-1);
  const e = last?.event as (AccountEvent | Answer) | undefined;
  if (!last) expect([s.value, where]).toEqual(['away', null]);
  // While a token is checked, the page asked for is the one on show (the address bar does not jump).
  if (s.matches('checking')) expect(accountScreen(s)).toBe(screenOfPath(s.context.wanted!.path));
  // The list is the server's; a new sign-in never shows the bookings of whoever was signed in before.
  if (e?.type === fetchBookings.done().type) expect(s.context.bookings).toEqual((e as { output: unknown }).output);
  if (e?.type === login.done().type && s.context.session) expect(s.context.bookings).toBeNull();

  // What the app hears, and the session it stores is the one the account works with.
  if (last) expect(last.effects.toParent).toEqual(expectedToParent(last, trail.slice(0, -1), input));
  expect(s.context.session).toEqual(sessionTold(trail, input));

  // SPEC 2 'Login': /login keeps the page to return to in ?redirect= (an off-site one is dropped).
  if (s.matches('login')) {
    const target = returnTarget(trail);
    expect(where).toEqual({ path: '/login', search: target ? `?redirect=${encodeURIComponent(target)}` : '' });
  }
  // SPEC 2 'Route guard': a protected screen only after the token was accepted (or the passenger signed in) for
  // this navigation, and it is the screen asked for.
  const page = s.matches('journeys') ? 'journeys' : s.matches('invoices') ? 'invoices' : null;
  if (s.matches('bookings') || s.matches('myAccount') || page) {
    expect(sessionTold(trail, input)).not.toBeNull();
    const since = trail.slice(trail.findLastIndex((x) => x.event.type === 'url.changed') + 1);
    expect(since.some((x) => signedInBy(x.event)), 'validated for this navigation').toBe(true);
    const target = returnTarget(trail);
    const asked = target ? screenOfPath(location(target).path) : null;
    expect(where).toEqual({ path: asked === 'myAccount' ? '/my-account' : asked === 'journeys' || asked === 'invoices' ? PAGE_PATHS[asked] : '/bookings', search: '' });
  }
  // Issue 44: a page's machine runs exactly while its screen is on show and its view has handed it over since the
  // screen opened (a token accepted, or a sign-in); a page that ends (a call answered 401) ends the session.
  const opened = trail.slice(trail.findLastIndex((x) => signedInBy(x.event)) + 1);
  const handedOver = opened.some((x) => x.event.type === 'page.loaded' && (x.event as Extract<AccountEvent, { type: 'page.loaded' }>).screen === page);
  expect(s.context.page !== null, 'a page runs while its screen shows, once handed over').toBe(page !== null && handedOver);
  if (isPageEnd(e)) expect([s.value, s.context.session, s.context.page]).toEqual([{ login: 'editing' }, null, null]);
  // While the token is checked the address bar keeps the page asked for.
  if (s.matches('checking')) {
    const asked = trail.findLast((x) => x.event.type === 'url.changed')!.event as Extract<AccountEvent, { type: 'url.changed' }>;
    expect(where).toEqual({ path: asked.path, search: asked.search });
  }
  if (s.matches('away')) expect(where).toBeNull();

  // SPEC 8 'Sign-in' and 'Profile', word for word.
  if (is(e, login.done())) {
    if (signedInBy(e!)) expect(s.context.notice).toBe(LOGIN_OK);
    else expect([s.value, s.context.error]).toEqual([{ login: 'editing' }, INVALID_CREDENTIALS]);
  }
  // Any other failure shows the text the service gives ('An error occurred. Please try again later.', a 429's wait).
  if (failedWith(e, login)) expect([s.value, s.context.error]).toEqual([{ login: 'editing' }, (e as Answer).error!.message]);
  if (failedWith(e, fetchBookings) && !failedWith(e, fetchBookings, SESSION_ENDED)) {
    expect([s.value, s.context.error]).toEqual([{ bookings: 'failed' }, (e as Answer).error!.message]);
  }
  if (is(e, updateProfile.done())) expect([s.value, s.context.notice]).toEqual([{ myAccount: 'editing' }, PROFILE_UPDATED]);
  if (failedWith(e, updateProfile) && !failedWith(e, updateProfile, SESSION_ENDED)) {
    expect([s.value, s.context.error]).toEqual([{ myAccount: 'editing' }, (e as Answer).error!.message]);
  }
  // A 401 mid-visit ends the session like the guard does.
  if (failedWith(e, fetchBookings, SESSION_ENDED) || failedWith(e, updateProfile, SESSION_ENDED)) expect(s.matches('login')).toBe(true);
  if (is(e, logout.done()) || failedWith(e, logout)) expect([s.value, s.context.session]).toEqual(['away', null]);
  // A notice shows for 4 s; a new attempt clears the last message.
  if (e?.type.startsWith('xstate.after.')) expect(s.context.notice).toBeNull();
  if (e && ['login.submit', 'profile.save', 'bookings.retry', 'message.dismissed'].includes(e.type)) {
    expect([s.context.error, s.context.notice]).toEqual([null, null]);
  }
}

/** SPEC 2 'Login', 'Bookings' and 'Profile': Sign In, Logout on both account pages, Save, a message closed, a list tried again. */
export function offers(s: AccountSnapshot): ModelEvent<AccountEvent>[] {
  if (s.matches({ login: 'editing' })) return [{ type: 'login.submit', ...credentials }];
  const out: ModelEvent<AccountEvent>[] = [];
  if (s.matches('bookings') || s.matches('myAccount') || s.matches('journeys') || s.matches('invoices')) out.push({ type: 'logout' });
  if (s.matches({ bookings: 'failed' })) out.push({ type: 'bookings.retry' });
  if (s.matches({ myAccount: 'editing' })) {
    out.push({ type: 'profile.save', profile });
    if (s.context.notice || s.context.error) out.push({ type: 'message.dismissed' });
  }
  return out;
}

export const model: Model<typeof accountMachine> = {
  name: 'account machine',
  machine: accountMachine,
  events: EVENTS,
  inputs: INPUTS,
  // What the guards read (the session, the page wanted, whether a page runs) and the address bar.
  serialize: (s) => JSON.stringify([s.value, accountLocation(s), s.context.session, s.context.wanted, s.context.page !== null]),
  // A page can only end while it runs.
  allows: (s, e) => !isPageEnd(e) || s.context.page !== null,
  facts: spec,
  factsTitle: "SPEC 2's route guard and SPEC 8's messages",
  offers,
  deciding: ['login', 'validateToken', 'updateProfile', 'logout'],
  services: SERVICES,
  depth: () => Infinity,
};
