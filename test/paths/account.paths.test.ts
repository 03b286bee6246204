// The corporate account machine's generated paths in Chromium (./pathRunner.ts): SPEC 2 'Login', 'Bookings
// (corporate)', 'Profile' and 'Route guard', SPEC 4 'Sign-in' and SPEC 8's account messages, on the real page.
// Each path has its own passenger (made as the site makes one: a booking as a new client), signed in through the
// API for the stored-token visit. The server's answers are real where the demo can give them (a wrong password, an
// e-mail another account uses, a token ended elsewhere); the rest are asked of it (a dropped call, a 401, a 429).
// Issue 44's Journeys and Invoices are pages of their own machines (their own paths: ./accountJourneys.paths.test.ts,
// ./accountInvoices.paths.test.ts): here their first call is held, and a page ends when the session, ended elsewhere,
// answers that call 401.
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { accountLocation } from '../../machines/accountLocation';
import { INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED, SESSION_ENDED } from '../../src/domain/messages';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { fetchBookings, isPageEnd, login, logout, model, updateProfile, validateToken, type Answer } from '../machine/models/account';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, serviceOf, type Expected } from './screens';
import { openAsReturningVisitor } from './storage';
import { newAccount, signIn } from './data';
import { API_HEADERS } from './server';
import { decode } from '../../src/domain/encoding';

const API = '/api/v1';

/** The answer of `service` among the answers that follow a person's act, if any. */
const answerFrom = (then: ModelEvent[], service: { done: (o?: unknown) => { type: string } }) =>
  then.find((e) => e.type === service.done().type || e.type === service.done().type.replace('done', 'error')) as Answer | undefined;

/** The token the page keeps (SPEC 3 passenger_token, encoded as the site stores it). */
const pageToken = async (p: PathPage) => decode<string>(await p.page.evaluate(() => localStorage.getItem('passenger_token'))) ?? null;

/** Ends the page's session elsewhere (signed out on another device): the server no longer knows its token. */
async function endSessionElsewhere(p: PathPage) {
  const token = await pageToken(p);
  if (!token) throw new Error('the page keeps no token');
  await p.server.call('POST', '/passenger/logout', undefined, { Authorization: `Bearer ${token}` });
  const check = await fetch(`${p.server.url}/api/v1/passenger/validate-token`, { method: 'POST', headers: { ...API_HEADERS, Authorization: `Bearer ${token}` } });
  expect(((await check.json()) as { valid?: boolean }).valid).not.toBe(true);
}

/** Arranges the server's answers to the calls a person's act starts (the token check, the bookings list). */
async function arrange(p: PathPage, then: ModelEvent[]) {
  const check = answerFrom(then, validateToken);
  if (check?.type === validateToken.fails(null).type) {
    await p.server.fault({ method: 'POST', path: `${API}/passenger/validate-token`, kind: 'drop' });
  } else if (check && check.output === false) {
    await endSessionElsewhere(p);
  }
  const list = answerFrom(then, fetchBookings);
  const bookingsPath = `${API}/get_booking/${p.data.passengerId}`;
  if (list?.error) {
    const ended = list.error instanceof Error && list.error.message === SESSION_ENDED;
    await p.server.fault(ended
      ? { method: 'GET', path: bookingsPath, kind: 'status', status: 401, message: 'Unauthenticated.' }
      : { method: 'GET', path: bookingsPath, kind: 'drop' });
  } else if (Array.isArray(list?.output) && list.output.length === 0) {
    // Every passenger the site makes has booked once: an empty list is the server's answer, asked of it.
    await p.server.fault({ method: 'GET', path: bookingsPath, kind: 'answer', body: [] });
  }
}

const loginForm = (p: PathPage) => p.page.getByRole('form', { name: 'Sign in' });
const profileForm = (p: PathPage) => p.page.getByRole('form', { name: 'Profile' });

async function submitLogin(p: PathPage, then: ModelEvent[]) {
  const answer = answerFrom(then, login);
  const refused = answer?.output && (answer.output as { success: boolean }).success === false;
  if (answer?.error) {
    const message = (answer.error as Error).message;
    await p.server.fault(/Too many/.test(message)
      ? { method: 'POST', path: `${API}/check-passenger-login`, kind: 'status', status: 429, message }
      : { method: 'POST', path: `${API}/check-passenger-login`, kind: 'drop' });
  }
  await arrange(p, then);
  await loginForm(p).getByLabel('Email').fill(p.data.account.email);
  await loginForm(p).getByLabel('Password *', { exact: true }).fill(refused ? 'not-the-password' : p.data.account.password);
  await loginForm(p).getByRole('button', { name: 'Sign In' }).click();
}

async function saveProfile(p: PathPage, then: ModelEvent[]) {
  const answer = answerFrom(then, updateProfile);
  const message = answer?.error instanceof Error ? answer.error.message : null;
  if (message === SESSION_ENDED) await endSessionElsewhere(p);
  const form = profileForm(p);
  await form.getByLabel('Name').fill(p.data.newName);
  // Another account's address is refused by the server (SPEC 8 'Profile').
  const email = message && message !== SESSION_ENDED ? DEMO_CORPORATE.email : p.data.account.email;
  await form.getByLabel('Email').fill(email);
  // A new e-mail asks for the current password (issue 24).
  if (email !== p.data.account.email) await form.getByLabel('Current password').fill(p.data.account.password);
  await form.getByLabel('Phone').fill('07700 900999');
  await form.getByRole('button', { name: /^Save/ }).click();
}

type AccountExpected = Expected & {
  /** The page keeps a session (a stored token, or one signed in on the way). */
  signedIn: boolean;
  /** The account page to return to after signing in (SPEC 2 'Login': ?redirect=, an off-site one dropped). */
  target: string | null;
  /** 'Signed in successfully.' shows on the page signed in to, for a while. */
  notice?: string;
};
const PAGES: Record<string, 'journeys' | 'invoices'> = { '/bookings/journeys': 'journeys', '/bookings/invoices': 'invoices' };
const PROTECTED = ['/bookings', '/my-account', ...Object.keys(PAGES)];
/** The first call of each page, held until the path ends (or a page ends): what the page shows meanwhile is its heading. */
const PAGE_CALLS = [{ method: 'GET', path: `${API}/account/journeys` }, { method: 'GET', path: `${API}/account/invoices` }];
const pathOf = (href: string) => href.split('?')[0];
const onSite = (href: string | null) => !!href && href.startsWith('/') && !href.startsWith('//');

/**
 * SPEC 2 'Login', 'Bookings (corporate)', 'Profile' and 'Route guard', SPEC 4 'Sign-in' and 'Logout', SPEC 8's
 * account messages: the screen after each address typed, act and answer, written apart from machines/account.ts.
 */
const accountOracle: PathOracle<{ session: unknown }, AccountExpected> = {
  calls: {
    validateToken: { method: 'POST', path: `${API}/passenger/validate-token` },
    login: { method: 'POST', path: `${API}/check-passenger-login` },
    fetchBookings: { method: 'GET', path: /^\/api\/v1\/get_booking\/\d+$/ },
    // Issue 44: a page's first call (held), which a page that ends was answered 401.
    page: { method: 'GET', path: /^\/api\/v1\/account\/(journeys|invoices)$/ },
    updateProfile: { method: 'PATCH', path: `${API}/update-passenger` },
    logout: { method: 'POST', path: `${API}/passenger/logout` },
  },
  opens: (_name, input) => ({ screen: 'home', signedIn: input.session !== null, target: null }),
  after(before, e) {
    const { signedIn, target } = before;
    const keep = { signedIn, target };
    const signIn = (to: string | null): AccountExpected => ({ screen: 'login', search: to ? `?redirect=${encodeURIComponent(to)}` : '', signedIn: false, target: to });
    // The account page asked for, once the session is known good: its list loads first.
    const shown = (notice?: string): AccountExpected => {
      if (target && pathOf(target) === '/my-account') return { screen: 'myAccount', search: '', ...keep, signedIn: true, texts: notice ? [notice] : [], notice };
      // Issue 44: a page's heading at once; its own code is handed over next.
      const page = target ? PAGES[pathOf(target)] : undefined;
      if (page) return { screen: page, search: '', ...keep, signedIn: true, texts: notice ? [notice] : [], notice };
      return { waiting: 'fetchBookings', ...keep, signedIn: true, notice };
    };
    // Issue 44: a page's code handed over (its first call held); a page that ends ends the session, to come back to it.
    if (e.type === 'page.loaded') {
      const page = (e as unknown as { screen: 'journeys' | 'invoices' }).screen;
      if (isWaiting(before) || before.screen !== page) return undefined;
      return { screen: page, search: '', ...keep, notice: before.notice, texts: before.notice ? [before.notice] : [], awaits: 'page' };
    }
    if (isPageEnd(e)) {
      if (isWaiting(before) || (before.screen !== 'journeys' && before.screen !== 'invoices')) return undefined;
      return signIn(Object.entries(PAGES).find(([, page]) => page === before.screen)![0]);
    }
    const service = serviceOf(e, { validateToken, login, fetchBookings, updateProfile, logout });
    if (service) {
      if (!isWaiting(before) || before.waiting !== service) return undefined;
      const a = e as Answer;
      const failure = a.error instanceof Error ? a.error.message : null;
      switch (service) {
        case 'validateToken': return a.output === true ? shown() : signIn(target);
        case 'login': {
          if (failure) return { ...signIn(target), texts: [failure] };
          if ((a.output as { success: boolean }).success === false) return { ...signIn(target), texts: [INVALID_CREDENTIALS] };
          // A page to return to outside the account area is the app's: the wizard, with no journey, at its start.
          if (target && !PROTECTED.includes(pathOf(target))) return { screen: 'home', signedIn: true, target };
          return shown(LOGIN_OK);
        }
        case 'fetchBookings':
          // A 401 ends the session where it stands: sign in again to come back to the list.
          if (failure === SESSION_ENDED) return signIn('/bookings');
          if (failure) return { screen: 'bookings', search: '', ...keep, alerts: [failure], buttons: ['Try again'] };
          {
            const empty = (a.output as unknown[]).length === 0;
            const texts = [...before.notice ? [before.notice] : [], ...empty ? ['No bookings yet'] : []];
            return { screen: 'bookings', search: '', ...keep, notice: before.notice, texts, buttons: empty ? [] : [/^Details of booking /] };
          }
        case 'updateProfile':
          if (failure === SESSION_ENDED) return signIn('/my-account');
          if (failure) return { screen: 'myAccount', search: '', ...keep, alerts: [failure] };
          return { screen: 'myAccount', search: '', ...keep, statuses: [PROFILE_UPDATED] };
        default:
          // SPEC 4: logout ends the session and goes home, whether or not the server heard it.
          return { screen: 'home', signedIn: false, target };
      }
    }
    if (isWaiting(before)) return undefined;
    if (e.type === 'url.changed') {
      const { path, search } = e as unknown as { path: string; search: string };
      if (path === '/login') {
        const to = new URLSearchParams(search).get('redirect');
        return { ...signIn(onSite(to) ? to : null), signedIn };
      }
      if (!PROTECTED.includes(path)) return undefined;
      // SPEC 2 'Route guard': a stored token is checked first; without one, sign in and come back here.
      return signedIn ? { waiting: 'validateToken', signedIn, target: path + search } : signIn(path + search);
    }
    const on = before.screen;
    if (e.type === 'login.submit' && on === 'login') return { waiting: 'login', ...keep };
    if (e.type === 'bookings.retry' && on === 'bookings' && before.alerts?.length) return { waiting: 'fetchBookings', ...keep };
    if (e.type === 'profile.save' && on === 'myAccount') return { waiting: 'updateProfile', ...keep };
    if (e.type === 'logout' && (on === 'bookings' || on === 'myAccount' || on === 'journeys' || on === 'invoices')) return { waiting: 'logout', ...keep };
    // The × of a message takes it away; the screen stays.
    if (e.type === 'message.dismissed') {
      const message = [...before.alerts ?? [], ...before.statuses ?? [], ...before.notice ? [before.notice] : []];
      if (!message.length) return undefined;
      return { screen: on, search: before.search, ...keep, gone: message };
    }
    // A notice shows for 4 s.
    if (e.type.startsWith('xstate.after.') && (on === 'bookings' || on === 'myAccount' || on === 'journeys' || on === 'invoices')) {
      const shownFor = [...before.statuses ?? [], ...before.notice ? [before.notice] : []];
      return { screen: on, search: before.search, ...keep, alerts: before.alerts, gone: shownFor };
    }
    return undefined;
  },
};

const wait = async () => {};

browserPaths({
  model,
  // A person cannot act while the page waits for an answer (the app ignores a Back meanwhile, the buttons are
  // disabled) or while the bookings load (nor can time pass: the list is there first), nor go to the address the
  // page is already at.
  allows: (s, e) => {
    if (s.hasTag('busy') || s.matches({ bookings: 'loading' })) return /^xstate\.(done|error)\./.test(e.type);
    // Issue 44: a page's view hands its code over as soon as the page shows; a page ends only while it runs.
    if ((s.matches('journeys') || s.matches('invoices')) && !s.context.page) return e.type === 'page.loaded';
    if (isPageEnd(e)) return s.context.page !== null;
    const ev = e as AnyEventObject;
    // The × of a message is there while a message is.
    if (ev.type === 'message.dismissed') return s.context.notice !== null || s.context.error !== null;
    const here = accountLocation(s);
    if (ev.type === 'url.changed') return !here || `${here.path}${here.search}` !== `${ev.path}${ev.search}`;
    return true;
  },
  async open(p, inputName) {
    const account = await newAccount(p.server);
    const session = await signIn(p.server, account.email, account.password);
    Object.assign(p.data, { account, passengerId: session.passenger.passenger_id, newName: `${account.registration.firstName} R. Hart` });
    for (const call of PAGE_CALLS) await p.server.fault({ ...call, kind: 'delay', ms: 300_000, times: 10 });
    if (inputName === 'a passenger with a stored token') await openAsReturningVisitor(p, '/', { session });
    else await p.typeUrl('/');
  },
  acts: {
    ...Object.fromEntries([
      '/login', '/login?redirect=%2Fbookings', '/login?redirect=%2Fmy-account', '/login?redirect=%2Fquotationview',
      '/login?redirect=%2F%2Fevil.example', '/bookings', '/bookings?page=2', '/my-account',
      '/bookings/journeys', '/bookings/invoices', '/login?redirect=%2Fbookings%2Finvoices',
    ].map((href) => [`url.changed ${href}`, async (p: PathPage, { then }: { then: ModelEvent[] }) => {
      await arrange(p, then);
      await p.back(href);
    }])),
    'login.submit amelia@example.com secret-1': (p, { then }) => submitLogin(p, then),
    'bookings.retry': async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByRole('button', { name: 'Try again' }).click();
    },
    'profile.save': (p, { then }) => saveProfile(p, then),
    'message.dismissed': (p) => p.page.getByRole('button', { name: 'Dismiss message' }).click(),
    logout: async (p, { then }) => {
      if (then[0]?.type === logout.fails(null).type) await p.server.fault({ method: 'POST', path: `${API}/passenger/logout`, kind: 'drop' });
      await p.page.getByRole('navigation', { name: 'Account' }).getByRole('button', { name: 'Logout' }).click();
    },
    // Issue 44: the page's view hands its code over by itself; the path waits for the account to have taken it.
    'page.loaded journeys': wait,
    'page.loaded invoices': wait,
    // The session ends elsewhere, and the page's held call goes on: answered 401, the page ends.
    'page done': async (p, { trail }) => {
      await endSessionElsewhere(p);
      const screen = (trail.findLast((x) => x.event.type === 'page.loaded')!.event as unknown as { screen: string }).screen;
      await p.server.release(PAGE_CALLS.find((c) => c.path.endsWith(screen))!);
    },
    '4000 ms later in journeys': wait,
    '4000 ms later in invoices': wait,
    '4000 ms later in bookings': wait,
    '4000 ms later in myAccount.editing': wait,
  },
  oracle: accountOracle,
});
