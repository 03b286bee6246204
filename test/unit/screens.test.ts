// The one route table (machines/routes.ts) and the small pieces every machine shares (machines/shared.ts): SPEC 2's
// paths, titles, site bar, sign-in and redirect rules.
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import {
  areaOfPath, hidesNavbar, needsSignIn, pageTitle, pathOfRoute, redirectSearch, redirectTarget, routeOfPath, ROUTES, stepIndexOfPath, urlOf,
} from '../../machines/routes';
import { errorText, isBusy, provided } from '../../machines/shared';

describe('paths and routes (SPEC 2)', () => {
  it('finds a route by its path or an alias, without case, and nothing for other paths', () => {
    expect(routeOfPath('/quotationview')).toBe('quotation');
    expect(routeOfPath('/QuotationView')).toBe('quotation');
    expect(routeOfPath('/home')).toBe('home');
    expect(routeOfPath('/booktripview')).toBe('home');
    expect(routeOfPath('/OurFleet')).toBe(routeOfPath('/ourfleet'));
    expect(routeOfPath('/no-such-page')).toBeNull();
    expect(routeOfPath('/quotationview/extra')).toBeNull();
    expect(pathOfRoute('myAccount')).toBe('/my-account');
  });

  it('gives an unknown path the home area, and each route its own', () => {
    expect(areaOfPath('/nowhere')).toBe('booking');
    expect(areaOfPath('/bookings')).toBe('account');
    expect(areaOfPath('/contactus')).toBe('site');
    expect(areaOfPath('/paymentview')).toBe('booking');
  });

  it('asks for sign-in on the bookings and profile pages only', () => {
    const signedIn = (Object.keys(ROUTES) as (keyof typeof ROUTES)[]).filter(needsSignIn);
    expect(signedIn.sort()).toEqual(['bookings', 'myAccount']);
    expect(needsSignIn('login')).toBe(false);
  });

  it('hides the site bar on the confirmation and the account pages, and shows it elsewhere and on unknown paths', () => {
    for (const path of ['/paymentSuccessView', '/login', '/bookings', '/my-account']) expect(hidesNavbar(path), path).toBe(true);
    for (const path of ['/', '/quotationview', '/contactus', '/no-such-page']) expect(hidesNavbar(path), path).toBe(false);
  });

  it('numbers the steps: the card page and the review count as payment, other pages as the first', () => {
    expect(['/', '/quotationview', '/personalDetailView', '/paymentview', '/stripecheckout'].map(stepIndexOfPath)).toEqual([0, 1, 2, 3, 3]);
    expect(stepIndexOfPath('/contactus')).toBe(0);
    expect(stepIndexOfPath('/no-such-page')).toBe(0);
  });

  it("titles a page by what it is for, then the operator's name; the home title for unknown paths", () => {
    expect(pageTitle('/quotationview', 'Albion Executive Cars')).toBe(`${ROUTES.quotation.title} | Albion Executive Cars`);
    expect(pageTitle('/quotationview', '  Albion  ')).toBe(`${ROUTES.quotation.title} | Albion`);
    expect(pageTitle('/quotationview', '   ')).toBe(ROUTES.quotation.title);
    expect(pageTitle('/quotationview', undefined)).toBe(ROUTES.quotation.title);
    expect(pageTitle('/no-such-page', 'A')).toBe(`${ROUTES.home.title} | A`);
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
