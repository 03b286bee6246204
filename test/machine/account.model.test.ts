// Model-based tests of machines/account.ts (./modelPaths.ts): SPEC 2 'Login', 'Bookings (corporate)', 'Profile'
// and 'Route guard', SPEC 4 'Sign-in' and SPEC 8's sign-in and profile messages. The machine runs as the child
// of a small recording parent (the app): what it tells the app ('navigate', 'session.changed') is part of each
// step. The facts below are worked out from the events of the path, not from the machine's own bookkeeping.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { accountLocation, accountScreen } from '../../machines/accountLocation';
import { accountMachine } from '../../machines/account';
import { INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED } from '../../src/domain/messages';
import { run, testModel } from './modelPaths';
import { passenger, session } from './fixtures';
import {
  login, validateToken, fetchBookings, updateProfile, logout, url, credentials, loginOk, updated, profile, INPUTS, is, model, pageLoaded, pageEnded,
} from './models/account';

testModel(model);

describe('what the machine does on its way', () => {
  it('sends /bookings without a token to /login?redirect=%2Fbookings and back there after signing in (SPEC 2)', async () => {
    const sut = run(model, INPUTS['a visitor with no stored token']);
    await sut.exec(url('/bookings'));
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/login', search: '?redirect=%2Fbookings' });
    await sut.exec({ type: 'login.submit', ...credentials });
    expect(sut.calls).toEqual([{ service: 'login', input: credentials }]);
    await sut.exec(login.done(loginOk));
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/bookings', search: '' });
    expect(sut.snapshot.context.notice).toBe(LOGIN_OK);
    expect(sut.calls.at(-1)).toEqual({ service: 'fetchBookings', input: { token: 'token-new', passenger } });
    expect(sut.received.filter((e) => e.type === 'navigate')).toEqual([]);
    sut.stop();
  });

  it('checks the stored token on each protected navigation, with that token (SPEC 4)', async () => {
    const sut = run(model, INPUTS['a passenger with a stored token']);
    await sut.exec(url('/bookings'));
    expect([sut.snapshot.value, sut.snapshot.hasTag('busy')]).toEqual(['checking', true]);
    await sut.exec(validateToken.done(true));
    await sut.exec(url('/my-account'));
    await sut.exec(validateToken.done(true));
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/my-account', search: '' });
    expect(sut.calls.filter((c) => c.service === 'validateToken')).toEqual([
      { service: 'validateToken', input: { token: 'token-stored' } },
      { service: 'validateToken', input: { token: 'token-stored' } },
    ]);
    sut.stop();
  });

  it('logs out with the token, then tells the app to forget the session and go to / even when the call fails (SPEC 4)', async () => {
    const sut = run(model, INPUTS['a passenger with a stored token']);
    await sut.exec(url('/my-account'));
    await sut.exec(validateToken.done(true));
    await sut.exec({ type: 'logout' });
    expect(sut.calls.at(-1)).toEqual({ service: 'logout', input: { token: 'token-stored' } });
    await sut.exec(logout.fails(new Error('Network down')));
    expect(sut.received).toEqual([{ type: 'session.changed', session: null }, { type: 'navigate', path: '/', search: '' }]);
    expect(sut.snapshot.context.session).toBeNull();
    sut.stop();
  });

  it('keeps the notices on screen for 4 s', async () => {
    const sut = run(model, INPUTS['a passenger with a stored token']);
    await sut.exec(url('/my-account'));
    await sut.exec(validateToken.done(true));
    await sut.exec({ type: 'profile.save', profile });
    expect(sut.calls.at(-1)).toEqual({ service: 'updateProfile', input: { session, profile } });
    await sut.exec(updateProfile.done(updated));
    expect(sut.snapshot.context.notice).toBe(PROFILE_UPDATED);
    sut.clock.increment(3999);
    expect(sut.snapshot.context.notice).toBe(PROFILE_UPDATED);
    sut.clock.increment(1);
    expect(sut.snapshot.context.notice).toBeNull();
    sut.stop();
  });

  // Fails against machines/account.ts today: /login is an on-site target outside the protected screens, so the
  // account leaves it to the app ('navigate' to /login), the app hands /login back to the account, and the passenger
  // who has just signed in sees the sign-in form again instead of the bookings.
  it('does not send a passenger who has just signed in back to the sign-in form (?redirect=%2Flogin)', async () => {
    const sut = run(model, INPUTS['a visitor with no stored token']);
    await sut.exec(url('/login?redirect=%2Flogin'));
    await sut.exec({ type: 'login.submit', ...credentials });
    await sut.exec(login.done(loginOk));
    expect(sut.received.filter((e) => e.type === 'navigate')).toEqual([]);
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/bookings', search: '' });
    sut.stop();
  });

  it('refuses a sign-in answer that says success but carries no token or no passenger (SPEC 8)', async () => {
    for (const answer of [{ ...loginOk, access_token: undefined }, { ...loginOk, passenger: undefined }, { ...loginOk, success: false }]) {
      const sut = run(model, INPUTS['a visitor with no stored token']);
      await sut.exec(url('/login'));
      await sut.exec({ type: 'login.submit', ...credentials });
      await sut.exec(login.done(answer as never));
      expect([sut.snapshot.value, sut.snapshot.context.error, sut.snapshot.context.session]).toEqual([{ login: 'editing' }, INVALID_CREDENTIALS, null]);
      expect(sut.received).toEqual([]);
      sut.stop();
    }
  });

  it('keeps the asked-for page and query in the address bar while the token is checked, and while logging out', async () => {
    const sut = run(model, INPUTS['a passenger with a stored token']);
    await sut.exec(url('/bookings?page=2'));
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/bookings', search: '?page=2' });
    await sut.exec(validateToken.done(true));
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/bookings', search: '' });
    await sut.exec(url('/my-account'));
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/my-account', search: '' });
    await sut.exec(validateToken.done(true));
    await sut.exec({ type: 'logout' });
    expect([sut.snapshot.value, accountLocation(sut.snapshot)]).toEqual(['loggingOut', { path: '/my-account', search: '' }]);
    sut.stop();
  });

  it('shows the profile, not the bookings, after signing in on the way to /my-account', async () => {
    const sut = run(model, INPUTS['a visitor with no stored token']);
    await sut.exec(url('/my-account'));
    await sut.exec({ type: 'login.submit', ...credentials });
    await sut.exec(login.done(loginOk));
    expect([sut.snapshot.value, accountLocation(sut.snapshot)]).toEqual([{ myAccount: 'editing' }, { path: '/my-account', search: '' }]);
    sut.stop();
  });

  it.each([
    '//evil.example', '/\\evil.example', 'https://evil.example/bookings', '\t//evil.example', 'javascript:alert(1)', '/%2F%2Fevil.example',
  ])('ignores an off-site redirect (%s) after signing in', async (target) => {
    const sut = run(model, INPUTS['a visitor with no stored token']);
    await sut.exec({ type: 'url.changed', path: '/login', search: `?redirect=${encodeURIComponent(target)}` });
    await sut.exec({ type: 'login.submit', ...credentials });
    await sut.exec(login.done(loginOk));
    const navigated = sut.received.filter((e) => e.type === 'navigate');
    // Either the bookings, or a path of this site (the app routes it; an unknown one lands on /).
    expect(navigated.every((n) => n.path.startsWith('/') && !n.path.startsWith('//'))).toBe(true);
    if (!navigated.length) expect(accountLocation(sut.snapshot)).toEqual({ path: '/bookings', search: '' });
    sut.stop();
  });

  it('starts the Journeys page once, with the session, and after the page ends signs in again back to it (issue 44)', async () => {
    const sut = run(model, INPUTS['a passenger with a stored token']);
    await sut.exec(url('/bookings/journeys'));
    await sut.exec(validateToken.done(true));
    expect([sut.snapshot.value, sut.snapshot.context.page]).toEqual(['journeys', null]);
    await sut.exec(pageLoaded('journeys'));
    await sut.exec(pageLoaded('journeys'));
    expect(sut.calls.filter((c) => c.service === 'journeysPage')).toEqual([{ service: 'journeysPage', input: { session } }]);
    await sut.exec(pageEnded);
    expect(accountLocation(sut.snapshot)).toEqual({ path: '/login', search: '?redirect=%2Fbookings%2Fjourneys' });
    expect(sut.received).toEqual([{ type: 'session.changed', session: null }]);
    await sut.exec({ type: 'login.submit', ...credentials });
    await sut.exec(login.done(loginOk));
    expect([sut.snapshot.value, accountLocation(sut.snapshot)]).toEqual(['journeys', { path: '/bookings/journeys', search: '' }]);
    sut.stop();
  });

  it("ignores the other page's code, and stops the page when its screen is left (issue 44)", async () => {
    const sut = run(model, INPUTS['a passenger with a stored token']);
    await sut.exec(url('/bookings/invoices'));
    await sut.exec(validateToken.done(true));
    await sut.exec(pageLoaded('journeys'));
    expect(sut.snapshot.context.page).toBeNull();
    await sut.exec(pageLoaded('invoices'));
    const page = sut.snapshot.context.page!;
    expect(page.getSnapshot().status).toBe('active');
    await sut.exec(url('/bookings'));
    expect([sut.snapshot.value, sut.snapshot.context.page, page.getSnapshot().status]).toEqual(['checking', null, 'stopped']);
    sut.stop();
  });
});

describe('where the account is, while a page asked for is checked or the passenger signs out', () => {
  const base = createActor(accountMachine, { input: { session } }).getSnapshot().context;
  const at = (value: 'checking' | 'loggingOut', wanted: { path: string; search: string } | null) =>
    accountMachine.resolveState({ value, context: { ...base, wanted } });
  it('shows the protected page asked for while its token is checked, the address bar kept as asked', () => {
    const asked = { path: '/my-account', search: '' };
    expect([accountScreen(at('checking', asked)), accountLocation(at('checking', asked))]).toEqual(['myAccount', asked]);
  });
  it('shows the bookings for a page that is not the account\'s, or none, each at its own address', () => {
    expect(accountScreen(at('checking', { path: '/', search: '' }))).toBe('bookings');
    expect([accountScreen(at('loggingOut', null)), accountLocation(at('loggingOut', null))]).toEqual(['bookings', { path: '/bookings', search: '' }]);
    expect(accountLocation(at('loggingOut', { path: '/quotationview', search: '' }))).toEqual({ path: '/bookings', search: '' });
    expect(accountLocation(at('loggingOut', { path: '/my-account', search: '?x=1' }))).toEqual({ path: '/my-account', search: '' });
  });
});
