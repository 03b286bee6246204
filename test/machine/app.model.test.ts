// Model-based tests of machines/app.ts (./modelPaths.ts): SPEC 1 and 4 'Settings' (the loading overlay until
// the settings arrive, a failure kept and the app started anyway), SPEC 2 'Screens and routes' (each path goes
// to the area that owns it, any other path to /; the pages around the wizard are the app's own) and the corporate
// session shared between the areas.
//
// The app's guard reads its children (a location change is ignored while a child waits for an answer that
// decides the next screen), so the walk runs the real system: the app with the real booking wizard and account
// machines, every service of the three answered by the test ('system' walk). Events for a child are sent to it
// as its screen would ('booking: home.submit ...'); what a child tells the app comes from the child itself.
import { describe, expect, it } from 'vitest';
import { areaOf } from '../../machines/app';
import { run, testModel, toChild } from './modelPaths';
import { bookingForm, passenger, prices, session, settings } from './fixtures';
import { loadSettings, calculatePrice, login, url, loaded, loginOk, INPUTS, view, ACCOUNT_PATHS, WIZARD_PATHS, SITE_PATHS, model } from './models/app';

testModel(model);

describe('what the machine does on its way', () => {
  it.each([...ACCOUNT_PATHS, ...WIZARD_PATHS, ...SITE_PATHS, '/no-such-page', '/Login', '/bookings/7', '/ContactUs'])(
    'shows %s in the area the route table of SPEC 2 gives it (any other path lands on /)',
    async (path) => {
      const sut = run(model, { location: { path: '/', search: '' }, stored: {}, session: null });
      await sut.exec(loadSettings.done(loaded));
      await sut.exec(url(path));
      const seen = view(sut.snapshot);
      if (ACCOUNT_PATHS.includes(path.toLowerCase())) {
        expect(seen.area).toBe('account');
        expect(ACCOUNT_PATHS).toContain(seen.location?.path);
      } else if (SITE_PATHS.includes(path.toLowerCase())) {
        expect([seen.area, seen.location]).toEqual(['site', { path: path.toLowerCase(), search: '' }]);
      } else {
        expect(seen.area).toBe('wizard');
        // No booking data yet: the step guards send the later steps to /home (SPEC 2).
        const lands = WIZARD_PATHS.includes(path) ? ['/', '/home', '/booktripview', '/quoteView', '/forgot_password'] : ['/'];
        expect(lands).toContain(seen.location?.path);
      }
      sut.stop();
    },
  );

  it('starts the wizard with the settings, the stored booking and the session, at the page asked for', async () => {
    const sut = run(model, { location: { path: '/quotationview', search: '' }, stored: { priceDetails: prices }, session });
    await sut.exec(url('/quotationview'));
    await sut.exec(loadSettings.done(loaded));
    expect(view(sut.snapshot).location).toEqual({ path: '/quotationview', search: '' });
    expect(view(sut.snapshot).wizard).toEqual({ session, settings: loaded });
    sut.stop();
  });

  it('starts at once with settings sent with the page (decision 30): no fetch, no loading screen, and they are stored', () => {
    const sut = run(model, { ...INPUTS['a visit to / with the settings in the page'], location: { path: '/quotationview', search: '' }, stored: { priceDetails: prices } });
    expect(sut.calls.map((c) => c.service)).not.toContain('loadSettings');
    expect(view(sut.snapshot)).toMatchObject({ area: 'wizard', location: { path: '/quotationview', search: '' }, wizard: { settings: loaded } });
    expect(sut.actionsCalled).toContainEqual({ type: 'storeSettings', params: { settings: loaded } });
    sut.stop();
  });

  it('holds the address while the wizard prices, and moves on with it afterwards', async () => {
    const sut = run(model, INPUTS['a first visit to /']);
    await sut.exec(loadSettings.done(loaded));
    await sut.exec(toChild('booking', { type: 'home.submit', bookingType: 'milleage', form: bookingForm }));
    await sut.exec(url('/login'));
    expect([areaOf(sut.snapshot), view(sut.snapshot).location]).toEqual(['wizard', { path: '/', search: '' }]);
    await sut.exec(calculatePrice.done({ prices, trip: null }));
    expect(view(sut.snapshot).location).toEqual({ path: '/quotationview', search: '' });
    // Once the answer is in, the next location is followed again.
    await sut.exec(url('/login'));
    expect(areaOf(sut.snapshot)).toBe('account');
    sut.stop();
  });

  it('signs in from /login?redirect=%2Fquotationview and returns to the wizard as that passenger', async () => {
    const sut = run(model, INPUTS['a first visit to /']);
    await sut.exec(loadSettings.done(loaded));
    await sut.exec(url('/login?redirect=%2Fquotationview'));
    expect(view(sut.snapshot).location).toEqual({ path: '/login', search: '?redirect=%2Fquotationview' });
    await sut.exec(toChild('account', { type: 'login.submit', email: 'amelia@example.com', password: 'secret-1' }));
    const { effects } = await sut.exec(login.done(loginOk));
    const signedIn = { token: 'token-new', passenger };
    expect(effects.fromChildren).toEqual([
      { type: 'session.changed', session: signedIn }, { type: 'navigate', path: '/quotationview', search: '' },
    ]);
    expect(effects.actions).toEqual([{ type: 'storeSession', params: { session: signedIn } }]);
    expect(areaOf(sut.snapshot)).toBe('wizard');
    // No prices yet: SPEC 2's guard sends /quotationview to /home.
    expect(view(sut.snapshot).location).toEqual({ path: '/home', search: '' });
    expect(view(sut.snapshot).wizard?.session).toEqual(signedIn);
    expect(sut.snapshot.context.booking?.getSnapshot().context.registration).toMatchObject({ email: passenger.passenger_email });
    sut.stop();
  });

  it('removes the stored session when a protected page is asked for without one (SPEC 2 \'Route guard\')', async () => {
    const sut = run(model, { location: { path: '/my-account', search: '' }, stored: {}, session: null });
    const { effects } = await sut.exec(loadSettings.fails(new Error('offline')));
    expect(effects.actions).toEqual([{ type: 'storeSession', params: { session: null } }]);
    expect(view(sut.snapshot).location).toEqual({ path: '/login', search: '?redirect=%2Fmy-account' });
    sut.stop();
  });
});
