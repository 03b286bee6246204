// The app machine's generated paths in Chromium (./pathRunner.ts): SPEC 1 and 4 'Settings' (the loading overlay
// until the settings arrive; a failed settings call leaves the site working), SPEC 2 'Screens and routes' (each
// path shows the area that owns it; the corporate screens ask for sign-in first) and the session shared between
// the areas.
import type { AnyEventObject } from 'xstate';
import { areaOf, type AppSnapshot } from '../../machines/app';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { ACCOUNT_PATHS, expectedLocation, INPUTS, model } from '../machine/models/app';
import type { ModelEvent, Trail } from '../machine/modelPaths';
import { browserPaths, type PathPage } from './pathRunner';
import { openAsReturningVisitor } from './storage';
import { signIn } from './data';

type S = AppSnapshot;
const failed = (e: ModelEvent | undefined) => !!e && e.type.startsWith('xstate.error.actor.');

/** The address SPEC 2 sends a visitor to when a corporate screen is asked for before signing in. */
const loginFor = (path: string, search: string) => `?redirect=${encodeURIComponent(path + search)}`;

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
      '/operator', '/operator/bookings/BK-ABCDEFGH', '/manage/BK-ABCDEFGH', '/manage']
      .map((href) => [`url.changed ${href}`, (p: PathPage) => p.back(href)])),
    // The console's code arrives by itself on its pages (its own chunk); the path waits for it to be running.
    'area.loaded operator': async (p) => { await p.sees('Opening the console'); },
    // Issue 27: so does the manage page's; the path waits for its first screen.
    'area.loaded manage': async (p) => { await p.page.getByRole('heading', { level: 1 }).first().waitFor(); },
    'account: login.submit amelia@example.com secret-1': async (p) => {
      const form = p.page.getByRole('form', { name: 'Sign in' });
      await form.getByLabel('Email').fill(DEMO_CORPORATE.email);
      await form.getByLabel('Password *', { exact: true }).fill(DEMO_CORPORATE.password);
      await form.getByRole('button', { name: 'Sign In' }).click();
    },
  },
  async sees(p, s: S, trail: Trail<S>, input) {
    if (s.matches('loading')) {
      await p.sees('Please wait while loading content');
      return;
    }
    const asked = expectedLocation(trail, input);
    const signedIn = input.session !== null || trail.some((step) => step.event.type.startsWith('xstate.done.actor.') && (step.event as { output?: { access_token?: string } }).output?.access_token);
    switch (areaOf(s)) {
      case 'site':
        await p.at(asked.path.toLowerCase());
        await p.heading(asked.path.toLowerCase() === '/contactus' ? 'Contact Us' : 'Our Fleet');
        break;
      case 'account':
        if (ACCOUNT_PATHS.includes(asked.path) && asked.path !== '/login' && !signedIn) {
          await p.at('/login', loginFor(asked.path, asked.search));
          await p.heading('Sign In to Corporate Account');
        } else {
          await p.at(asked.path);
        }
        break;
      case 'operator':
        // Issue 26: the console, checking the session, keeps the address asked for.
        await p.at(asked.path, asked.search);
        await p.sees('Opening the console');
        break;
      case 'manage': {
        // Issue 27: the manage page shows its own spelling of the address once its code runs.
        const own = s.context.areas.manage && asked.path !== '/manage' ? asked.path.replace(/[^/]+$/, (r) => r.toUpperCase()) : asked.path;
        await p.at(own);
        break;
      }
      default:
        // The wizard: a step the visitor has the data for, else the start (SPEC 2's guards).
        await p.page.getByRole('tab', { name: 'GET A QUOTE' }).waitFor();
        await p.at(['/', '/home'].includes(asked.path) ? asked.path : '/home');
    }
  },
});
