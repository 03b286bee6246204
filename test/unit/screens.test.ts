// The one screen catalogue (src/domain/screens.ts) and the small pieces every machine shares (machines/shared.ts):
// SPEC 2's paths, titles, site bar, sign-in and redirect rules.
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  areaOfPath, areaOfScreen, hidesNavbar, needsSignIn, pageTitle, pathOfScreen, prevNextOf, redirectSearch, redirectTarget, screenOfPath,
  SCREENS, STEPS, stepOfPath, urlOf, type Screen, type ScreenName,
} from '../../src/domain/screens';
import { bookingMachine } from '../../machines/booking';
import { accountMachine } from '../../machines/account';
import { errorText, isBusy, provided } from '../../machines/shared';

describe('paths and routes (SPEC 2)', () => {
  it('finds a route by its path or an alias, without case, and nothing for other paths', () => {
    expect(screenOfPath('/quotationview')).toBe('quotation');
    expect(screenOfPath('/QuotationView')).toBe('quotation');
    expect(screenOfPath('/home')).toBe('home');
    expect(screenOfPath('/booktripview')).toBe('home');
    expect(screenOfPath('/OurFleet')).toBe(screenOfPath('/ourfleet'));
    expect(screenOfPath('/no-such-page')).toBeNull();
    expect(screenOfPath('/quotationview/extra')).toBeNull();
    expect(pathOfScreen('myAccount')).toBe('/my-account');
  });

  it('gives an unknown path the home area, and each route its own', () => {
    expect(areaOfPath('/nowhere')).toBe('wizard');
    expect(areaOfPath('/bookings')).toBe('account');
    expect(areaOfPath('/contactus')).toBe('site');
    expect(areaOfPath('/paymentview')).toBe('wizard');
  });

  it('asks for sign-in on the bookings, journeys, invoices and profile pages only', () => {
    const signedIn = (Object.keys(SCREENS) as (keyof typeof SCREENS)[]).filter(needsSignIn);
    expect(signedIn.sort()).toEqual(['bookings', 'invoices', 'journeys', 'myAccount']);
    expect(needsSignIn('login')).toBe(false);
  });

  it('hides the site bar on the confirmation and the account pages, and shows it elsewhere and on unknown paths', () => {
    for (const path of ['/paymentSuccessView', '/login', '/bookings', '/my-account']) expect(hidesNavbar(path), path).toBe(true);
    for (const path of ['/', '/quotationview', '/contactus', '/no-such-page']) expect(hidesNavbar(path), path).toBe(false);
  });

  it('numbers the steps: the card page and the review count as payment, other pages as the first', () => {
    expect(['/', '/quotationview', '/personalDetailView', '/paymentview', '/stripecheckout'].map(stepOfPath)).toEqual([0, 1, 2, 3, 3]);
    expect(stepOfPath('/contactus')).toBe(0);
    expect(stepOfPath('/no-such-page')).toBe(0);
  });

  it("titles a page by what it is for, then the operator's name; the home title for unknown paths", () => {
    expect(pageTitle('/quotationview', 'Albion Executive Cars')).toBe(`${SCREENS.quotation.title} | Albion Executive Cars`);
    expect(pageTitle('/quotationview', '  Albion  ')).toBe(`${SCREENS.quotation.title} | Albion`);
    expect(pageTitle('/quotationview', '   ')).toBe(SCREENS.quotation.title);
    expect(pageTitle('/quotationview', undefined)).toBe(SCREENS.quotation.title);
    expect(pageTitle('/no-such-page', 'A')).toBe(`${SCREENS.home.title} | A`);
  });
});

describe('the sign-in redirect (SPEC 2 route guard)', () => {
  it('keeps the wanted page and query in ?redirect=, and reads it back', () => {
    const wanted = { path: '/bookings', search: '?page=2' };
    expect(urlOf(wanted)).toBe('/bookings?page=2');
    expect(redirectSearch(wanted)).toBe('?redirect=%2Fbookings%3Fpage%3D2');
    expect(redirectTarget(redirectSearch(wanted))).toEqual(wanted);
  });

  it('follows only a path on this site', () => {
    for (const raw of ['', 'bookings', '//evil.example', '/\\evil.example', 'https://evil.example/bookings']) {
      expect(redirectTarget(`?redirect=${encodeURIComponent(raw)}`), raw).toBeNull();
    }
    expect(redirectTarget('')).toBeNull();
    // A tab is dropped by URL parsing: '/<tab>/evil.example' would be another host.
    expect(redirectTarget(`?redirect=${encodeURIComponent('/\t/evil.example')}`)).toBeNull();
    expect(redirectTarget('?redirect=%2Fmy-account')).toEqual({ path: '/my-account', search: '' });
    // A path that only ends with two slashes is still a path here.
    expect(redirectTarget('?redirect=%2Fbookings%2F%2F')).toEqual({ path: '/bookings//', search: '' });
  });
});

describe('what every machine shares', () => {
  it("says what failed: an error's message, a thrown text, or a general sentence", () => {
    expect(errorText(new Error('Network down'))).toBe('Network down');
    expect(errorText('Too many attempts')).toBe('Too many attempts');
    expect(errorText({ status: 500 })).toBe('Something went wrong. Please try again.');
    expect(errorText(undefined)).toBe('Something went wrong. Please try again.');
  });

  it('fails a service the app has not provided, naming it', async () => {
    const actor = createActor(provided<string>('loadSettings'));
    const failed = new Promise((resolve) => actor.subscribe({ error: resolve }));
    actor.start();
    expect(((await failed) as Error).message).toBe('loadSettings is provided by the app');
  });

  it("is busy while the actor or any child of it is in a 'busy' state, and not once it has stopped", () => {
    const child = createMachine({ id: 'child', initial: 'waiting', states: { waiting: { tags: 'busy', on: { done: 'idle' } }, idle: {} } });
    const parent = createMachine({
      id: 'parent', initial: 'on', states: { on: { invoke: { id: 'child', src: child }, on: { stop: 'off' } }, off: { type: 'final' } },
    });
    expect(isBusy(null)).toBe(false);
    expect(isBusy(undefined)).toBe(false);
    const actor = createActor(parent).start();
    expect(isBusy(actor)).toBe(true);
    actor.getSnapshot().children.child!.send({ type: 'done' });
    expect(isBusy(actor)).toBe(false);
    const busyRoot = createActor(child).start();
    expect(isBusy(busyRoot)).toBe(true);
    busyRoot.stop();
    expect(isBusy(busyRoot)).toBe(false);
    const promise = createActor(fromPromise(() => new Promise(() => {}))).start();
    expect(isBusy(promise)).toBe(false);
  });
});

describe('the catalogue is the one place for screens (issue 25)', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const sources = (dir: string) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(dir, f));
  /** The code without its comments (which may quote a path to say which SPEC screen they are about). */
  const code = (file: string) => readFileSync(path.join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

  it('names every path: no path of a screen is written anywhere else in src/web or machines/', () => {
    const paths = Object.values(SCREENS).flatMap((s: Screen) => [s.path, ...(s.aliases ?? [])]).map((p) => p.toLowerCase());
    const found = [...sources('src/web'), ...sources('machines')].flatMap((file) =>
      [...code(file).matchAll(/(['"`])(\/[^'"`\s]*)\1/g)].filter(([, , p]) => paths.includes(p.toLowerCase())).map(([m]) => `${file}: ${m}`));
    expect(found).toEqual([]);
  });

  it('is what the server reads: nothing of src/server imports machines/ or src/web', () => {
    const upward = sources('src/server').flatMap((file) => [...code(file).matchAll(/(?:from|import\()\s*['"](\.[^'"]+)['"]/g)]
      .map(([, spec]) => path.relative(root, path.resolve(root, path.dirname(file), spec)))
      .filter((target) => target.startsWith('machines/') || target.startsWith('src/web/'))
      .map((target) => `${file} -> ${target}`));
    expect(upward).toEqual([]);
  });

  it('leads Previous and Next to screens, and every view it names is loaded by that name', () => {
    for (const [name, s] of Object.entries(SCREENS) as [ScreenName, Screen][]) {
      for (const to of [s.previous, s.next]) if (to) expect(Object.keys(SCREENS), name).toContain(to);
    }
    expect(prevNextOf('quotation')).toEqual({ previous: 'home', next: null });
    expect(prevNextOf('payment')).toEqual({ previous: 'details', next: null });
    expect(prevNextOf('details')).toBeNull();
    expect(STEPS.map((s) => SCREENS[s.screen].step)).toEqual([0, 1, 2, 3]);
  });

  it('is what each machine state shows: its meta names a screen of its area, and each wizard screen is the state named after it', () => {
    const screensOf = (node: { meta?: { screen?: string }; states: Record<string, unknown> }, at: string[] = []): [string, string][] =>
      Object.entries(node.states).flatMap(([key, child]) => {
        const c = child as typeof node;
        return [...(c.meta?.screen ? [[[...at, key].join('.'), c.meta.screen] as [string, string]] : []), ...screensOf(c, [...at, key])];
      });
    const wizard = screensOf(bookingMachine.root);
    expect(wizard.map(([, s]) => s).sort()).toEqual(Object.keys(SCREENS).filter((n) => areaOfScreen(n as ScreenName) === 'wizard').sort());
    for (const [state, screen] of wizard) expect(state, screen).toBe(screen);
    for (const [state, screen] of screensOf(accountMachine.root)) {
      expect(screen === 'wanted' || areaOfScreen(screen as ScreenName) === 'account', state).toBe(true);
    }
  });
});
