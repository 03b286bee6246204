// The corporate account machine's generated paths in Chromium (./pathRunner.ts): SPEC 2 'Login', 'Bookings
// (corporate)', 'Profile' and 'Route guard', SPEC 4 'Sign-in' and SPEC 8's account messages, on the real page.
// Each path has its own passenger (made as the site makes one: a booking as a new client), signed in through the
// API for the stored-token visit. The server's answers are real where the demo can give them (a wrong password, an
// e-mail another account uses, a token ended elsewhere); the rest are asked of it (a dropped call, a 401, a 429).
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import type { AccountSnapshot } from '../../machines/account';
import { accountLocation } from '../../machines/accountLocation';
import { INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED, SESSION_ENDED } from '../../src/domain/messages';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { failedWith, fetchBookings, is, login, logout, model, returnTarget, signedInBy, updateProfile, validateToken, type Answer } from '../machine/models/account';
import type { ModelEvent, Trail } from '../machine/modelPaths';
import { browserPaths, type PathPage } from './pathRunner';
import { openAsReturningVisitor } from './storage';
import { newAccount, signIn } from './data';
import { API_HEADERS } from './server';
import { decode } from '../../src/domain/encoding';

type S = AccountSnapshot;
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

const wait = async () => {};

browserPaths({
  model,
  // A person cannot act while the page waits for an answer (the app ignores a Back meanwhile, the buttons are
  // disabled) or while the bookings load (nor can time pass: the list is there first), nor go to the address the
  // page is already at.
  allows: (s, e) => {
    if (s.hasTag('busy') || s.matches({ bookings: 'loading' })) return /^xstate\.(done|error)\./.test(e.type);
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
    if (inputName === 'a passenger with a stored token') await openAsReturningVisitor(p, '/', { session });
    else await p.typeUrl('/');
  },
  acts: {
    ...Object.fromEntries([
      '/login', '/login?redirect=%2Fbookings', '/login?redirect=%2Fmy-account', '/login?redirect=%2Fquotationview',
      '/login?redirect=%2F%2Fevil.example', '/bookings', '/bookings?page=2', '/my-account',
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
    '4000 ms later in bookings': wait,
    '4000 ms later in myAccount.editing': wait,
  },
  async sees(p, s: S, trail: Trail<S>) {
    const last = trail.at(-1)?.event as (ModelEvent & Answer) | undefined;
    const signInHeading = p.page.getByRole('heading', { name: 'Sign In to Corporate Account' });
    if (s.matches('away')) {
      // Another area of the site: after logout, the home page, signed out.
      await expect.poll(() => signInHeading.count()).toBe(0);
      if (is(last, logout.done()) || failedWith(last, logout)) {
        await p.at('/');
        await expect.poll(() => pageToken(p)).toBeNull();
      }
      return;
    }
    if (s.matches('login')) {
      const target = returnTarget(trail);
      await p.at('/login', target ? `?redirect=${encodeURIComponent(target)}` : '');
      await signInHeading.waitFor();
      // SPEC 8 'Sign-in', word for word.
      if (is(last, login.done())) await p.sees(INVALID_CREDENTIALS);
      if (failedWith(last, login)) await p.sees((last!.error as Error).message);
      return;
    }
    if (s.matches('bookings')) {
      await p.at('/bookings', '');
      await p.heading('Bookings');
      if (last && signedInBy(last) && is(last, login.done())) await p.sees(LOGIN_OK);
      if (s.matches({ bookings: 'failed' })) await p.page.getByRole('alert').filter({ hasText: (last!.error as Error).message }).waitFor();
      if (s.matches({ bookings: 'list' }) && is(last, fetchBookings.done())) {
        if ((last!.output as unknown[]).length === 0) await p.heading('No bookings yet');
        else await p.page.getByRole('button', { name: /^Details of booking / }).first().waitFor();
      }
      return;
    }
    if (s.matches('myAccount')) {
      await p.at('/my-account', '');
      await p.heading('My Account');
      if (is(last, updateProfile.done())) {
        await p.page.getByRole('status').filter({ hasText: PROFILE_UPDATED }).waitFor();
        // The name the passenger saved is the one the account shows.
        await p.sees(p.data.newName);
      }
      if (failedWith(last, updateProfile)) await p.page.getByRole('alert').filter({ hasText: (last!.error as Error).message }).waitFor();
    }
  },
});
