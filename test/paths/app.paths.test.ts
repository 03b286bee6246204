// The app machine's generated paths in Chromium (./pathRunner.ts): SPEC 1 and 4 'Settings' (the loading overlay
// until the settings arrive; a failed settings call leaves the site working), SPEC 2 'Screens and routes' (each
// path shows the area that owns it; the corporate screens ask for sign-in first) and the session shared between
// the areas.
import type { AnyEventObject } from 'xstate';
import { areaOf, type AppInput } from '../../machines/app';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { INPUTS, loadSettings, login, model } from '../machine/models/app';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, serviceOf, type Expected } from './screens';
import { openAsReturningVisitor } from './storage';
import { signIn } from './data';

const failed = (e: ModelEvent | undefined) => !!e && e.type.startsWith('xstate.error.actor.');


type AppExpected = Expected & {
  /** The address asked for while the settings load (the overlay shows none). */
  asked?: { path: string; search: string };
  signedIn: boolean;
  /** The areas whose code has arrived (issue 26 and 27: each is a chunk of its own). */
  loaded: string[];
};
const ACCOUNT_PAGES = ['/bookings', '/my-account'];

/**
 * SPEC 2 'Screens and routes' and 'Route guard', SPEC 4 'Settings', issues 26 and 27: which screen an address shows,
 * by the area that owns it and what the visitor has (a session, the area's code), written apart from machines/app.ts.
 */
function screenFor(path: string, search: string, signedIn: boolean, loaded: string[]): AppExpected {
  const keep = { signedIn, loaded };
  const lower = path.toLowerCase();
  if (lower === '/contactus') return { screen: 'contact', at: '/contactus', ...keep };
  if (lower === '/ourfleet') return { screen: 'fleet', ...keep };
  if (path === '/login') return { screen: 'login', search, ...keep };
  if (ACCOUNT_PAGES.includes(path)) {
    // A stored token is checked first (the path holds that check); without one, sign in and come back.
    return signedIn ? { screen: 'accountChecking', at: path, search: '', ...keep }
      : { screen: 'login', search: `?redirect=${encodeURIComponent(path + search)}`, ...keep };
  }
  if (path === '/operator' || path.startsWith('/operator/')) return { screen: 'consoleOpening', at: path, search, ...keep };
  // Issue 41 §2: a driver's page, its code on its way or its session being checked.
  if (path === '/driver' || path.startsWith('/driver/')) return { screen: 'driverOpening', at: path, search, ...keep };
  if (path === '/manage' || path.startsWith('/manage/')) {
    if (!loaded.includes('manage')) return { screen: 'manageAsked', at: path, ...keep };
    // The booking's own address, in capitals; no key for it in this tab.
    return path === '/manage' ? { screen: 'manageFind', ...keep } : { screen: 'manageNoKey', at: path.replace(/[^/]+$/, (r) => r.toUpperCase()), ...keep };
  }
  // The wizard: a step needs its data (SPEC 2's guards), so any other address is its start.
  return { screen: 'home', at: ['/', '/home'].includes(path) ? path : '/home', ...keep };
}

const appOracle: PathOracle<AppInput, AppExpected> = {
  calls: {
    loadSettings: { method: 'GET', path: '/api/v1/setting' },
    login: { method: 'POST', path: '/api/v1/check-passenger-login' },
  },
  opens: (_name, input) => {
    const signedIn = input.session !== null;
    // Decision 30: settings sent with the page are used at once; otherwise the overlay until they arrive.
    return input.settings ? screenFor(input.location.path, input.location.search, signedIn, [])
      : { waiting: 'loadSettings', asked: input.location, signedIn, loaded: [] };
  },
  after(before, e) {
    const { signedIn, loaded } = before;
    const service = serviceOf(e, { loadSettings, login });
    if (service) {
      if (!isWaiting(before) || before.waiting !== service) return undefined;
      // A failed settings call leaves the site working, with its defaults.
      if (service === 'loadSettings') return screenFor(before.asked!.path, before.asked!.search, signedIn, loaded);
      // Signed in: back to the page the sign-in was asked for, a wizard page here (with no journey, its start).
      const to = new URLSearchParams(before.asked!.search).get('redirect') ?? '/bookings';
      return screenFor(to, '', true, loaded);
    }
    if (isWaiting(before)) return undefined;
    const ev = e as unknown as { type: string; path: string; search: string; area: string; event?: { type: string } };
    // While a stored token is checked, the address bar keeps its page: another address typed waits for it.
    if (ev.type === 'url.changed') return before.screen === 'accountChecking' ? before : screenFor(ev.path, ev.search, signedIn, loaded);
    if (ev.type === 'area.loaded') {
      const path = before.at ?? '';
      const owns = before.screen === ({ operator: 'consoleOpening', manage: 'manageAsked', driver: 'driverOpening' } as Record<string, string>)[ev.area];
      return owns ? screenFor(path, String(before.search ?? ''), signedIn, [...loaded, ev.area]) : undefined;
    }
    if (ev.type === '@child' && ev.event?.type === 'login.submit' && before.screen === 'login') {
      return { waiting: 'login', asked: { path: '/login', search: String(before.search ?? '') }, signedIn, loaded };
    }
    return undefined;
  },
};

browserPaths({
  model,
  // Not the address the page is at; an area's code arrives only on that area's pages (it is its own chunk).
  allows: (s, e) => !(e.type === 'url.changed' && (e as AnyEventObject).path === s.context.location.path && (e as AnyEventObject).search === s.context.location.search)
    && (e.type !== 'area.loaded' || areaOf(s) === (e as AnyEventObject).area),
  async open(p, inputName, _input, { next }) {
    // Issue 26: the console's session check is held until the path ends, as the model leaves it unanswered (the
    // console's own paths take the answers).
    await p.server.fault({ method: 'GET', path: '/api/v1/operator/session', kind: 'delay', ms: 30_000, times: 5 });
    // Issue 27: so is a signed-in passenger's key for the booking page (the manage machine's own paths take it).
    await p.server.fault({ method: 'POST', path: '/api/v1/manage/BK-ABCDEFGH/key', kind: 'delay', ms: 30_000, times: 5 });
    // Issue 41 §2: so is a driver's session check (the driver machine's own paths take its answers).
    await p.server.fault({ method: 'GET', path: '/api/v1/driver/session', kind: 'delay', ms: 30_000, times: 5 });
    // Decision 30: the server sends the settings with the page, read through GET /setting; for the inputs without
    // them, that read fails (the page then comes without them and asks for them itself, as the model says).
    if (inputName === 'a visit to / with the settings in the page') return p.typeUrl('/');
    await p.server.fault({ method: 'GET', path: '/api/v1/setting', kind: 'status', status: 503, message: 'Not with the page', times: 1 });
    // The settings call fails, as the server is asked, before the page asks for it.
    if (failed(next)) await p.server.fault({ method: 'GET', path: '/api/v1/setting', kind: 'drop' });
    if (inputName === 'a first visit to /') return p.typeUrl('/');
    const session = await signIn(p.server, DEMO_CORPORATE.email, DEMO_CORPORATE.password);
    // The token is checked on opening a corporate screen: held until the path ends, so the path can act while it
    // waits (no app path takes the answer; the account machine's paths do).
    await p.server.fault({ method: 'POST', path: '/api/v1/passenger/validate-token', kind: 'delay', ms: 30_000 });
    await openAsReturningVisitor(p, '/bookings', { session, settings: INPUTS[inputName].stored.settings });
  },
  acts: {
    ...Object.fromEntries(['/bookings', '/my-account', '/login', '/login?redirect=%2Fquotationview', '/', '/no-such-page', '/quotationview', '/contactus', '/OurFleet',
      '/operator', '/operator/bookings/BK-ABCDEFGH', '/manage/BK-ABCDEFGH', '/manage', '/driver']
      .map((href) => [`url.changed ${href}`, (p: PathPage) => p.back(href)])),
    // The console's code arrives by itself on its pages (its own chunk); the path waits for it to be running.
    'area.loaded operator': async (p) => { await p.sees('Opening the console'); },
    // Issue 27: so does the manage page's; the path waits for its first screen.
    'area.loaded manage': async (p) => { await p.page.getByRole('heading', { level: 1 }).first().waitFor(); },
    // Issue 41 §2: so does a driver's page's; it checks the session (held) meanwhile.
    'area.loaded driver': async (p) => { await p.sees('Opening your jobs'); },
    'account: login.submit amelia@example.com secret-1': async (p) => {
      const form = p.page.getByRole('form', { name: 'Sign in' });
      await form.getByLabel('Email').fill(DEMO_CORPORATE.email);
      await form.getByLabel('Password *', { exact: true }).fill(DEMO_CORPORATE.password);
      await form.getByRole('button', { name: 'Sign In' }).click();
    },
  },
  oracle: appOracle,
});
