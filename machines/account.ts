// The corporate account (SPEC 2 'Login', 'Bookings (corporate)', 'Profile',
// 'Route guard'; SPEC 4 'Sign-in'): sign in, the bookings list, the profile,
// logout. The app machine hands it every location on an account route as
// `url.changed`; a protected screen is shown only after the stored token was
// validated for this navigation. Where the visitor goes outside the account
// area (after logout, or a redirect to a wizard page), and every change of the
// session, it tells the app with `sendParent`; the app stores the session and
// shares it with the wizard.
import { assertEvent, assign, enqueueActions, sendParent, setup, type SnapshotFrom } from 'xstate';
import type { CorporateBooking, PassengerLoginResponse, PassengerProfile } from '../src/domain/schemas';
import { INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED, SESSION_ENDED } from '../src/domain/messages';
import { errorText, failure, output, provided } from './shared';
import { locationOfScreen, redirectTarget, screenOfPath, type AccountScreen, type Location } from '../src/domain/screens';

/** What a signed-in passenger keeps in browser storage (SPEC 3: passenger_token, passenger_corporate_details). */
export interface Session { token: string; passenger: PassengerProfile }

export interface AccountInput { session: Session | null }

/** The password goes only with a new e-mail (issue 24), and only to the call: it is never kept in the context. */
export interface ProfileChange { name: string; email: string; phone: string; currentPassword?: string }

export type AccountEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'login.submit'; email: string; password: string }
  | { type: 'profile.save'; profile: ProfileChange }
  | { type: 'bookings.retry' }
  | { type: 'logout' }
  | { type: 'message.dismissed' };

/** What the account tells the app. */
export type AccountToApp =
  | { type: 'navigate'; path: string; search: string }
  | { type: 'session.changed'; session: Session | null };

export interface AccountContext {
  session: Session | null;
  /** The protected screen asked for, kept while the token is checked and across the sign-in. */
  wanted: Location | null;
  bookings: CorporateBooking[] | null;
  error: string | null;
  notice: string | null;
}

const isProtected = (l: Location | null): l is Location =>
  l !== null && (screenOfPath(l.path) === 'bookings' || screenOfPath(l.path) === 'myAccount');
const locationOf = (e: AccountEvent): Location => (e.type === 'url.changed' ? { path: e.path, search: e.search } : locationOfScreen('home'));

export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    input: {} as AccountInput,
    /** The screen a state shows (src/domain/screens.ts); 'wanted': the protected screen asked for, while it is checked. */
    meta: {} as { screen?: AccountScreen | 'wanted' },
  },
  actors: {
    login: provided<PassengerLoginResponse, { email: string; password: string }>('login'),
    validateToken: provided<boolean, { token: string }>('validateToken'),
    fetchBookings: provided<CorporateBooking[], Session>('fetchBookings'),
    updateProfile: provided<PassengerProfile, { session: Session; profile: ProfileChange }>('updateProfile'),
    logout: provided<void, { token: string }>('logout'),
  },
  actions: {
    clearMessages: assign({ error: null, notice: null }),
    assignWanted: assign({ wanted: ({ event }) => locationOf(event) }),
    /** The redirect target of /login: a protected screen is kept here; any other page is left to the app. */
    assignWantedFromRedirect: assign({
      wanted: ({ event }) => {
        const target = redirectTarget(locationOf(event).search);
        // Back to the sign-in form would ask again: that target means the default, the bookings.
        return target && screenOfPath(target.path) !== 'login' ? target : null;
      },
    }),
    endSession: enqueueActions(({ enqueue }) => {
      enqueue.assign({ session: null, bookings: null });
      enqueue.sendParent({ type: 'session.changed', session: null } satisfies AccountToApp);
    }),
    /** A session started (sign-in) or changed (profile saved): kept, and told to the app, which stores it. */
    keepSession: enqueueActions(({ enqueue }, params: { session: Session; notice: string }) => {
      enqueue.assign({ session: params.session, notice: params.notice, error: null });
      enqueue.sendParent({ type: 'session.changed', session: params.session } satisfies AccountToApp);
    }),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: errorText(error), notice: null })),
    /** Leaves the account area for the login's redirect target, or for / after logout. */
    leaveFor: sendParent((_, params: Location) => ({ type: 'navigate', ...params }) satisfies AccountToApp),
  },
  guards: {
    wants: ({ event }, params: { route: AccountScreen }) => screenOfPath(locationOf(event).path) === params.route,
    wantedIs: ({ context }, params: { route: AccountScreen }) => screenOfPath(context.wanted?.path ?? '') === params.route,
    signedIn: ({ context }) => context.session !== null,
    accepted: (_, answer: PassengerLoginResponse) => answer.success === true && sessionFrom(answer) !== null,
    tokenValid: (_, { valid }: { valid: boolean }) => valid === true,
    sessionEnded: (_, { error }: { error: unknown }) => errorText(error) === SESSION_ENDED,
    redirectsInside: ({ context }) => context.wanted === null || isProtected(context.wanted),
  },
  delays: {
    /** How long 'Login Successfully' and 'Passenger Details Updated' stay on screen. */
    noticeShown: 4000,
  },
}).createMachine({
  id: 'account',
  context: ({ input }) => ({ session: input.session, wanted: null, bookings: null, error: null, notice: null }),
  initial: 'away',
  on: {
    'url.changed': [
      { guard: { type: 'wants', params: { route: 'login' } }, target: '.login', actions: ['clearMessages', 'assignWantedFromRedirect'] },
      // SPEC 2 'Route guard': no stored token sends the visitor to sign in, the wanted page kept in ?redirect=.
      { guard: 'signedIn', target: '.checking', actions: ['clearMessages', 'assignWanted'] },
      { target: '.login', actions: ['clearMessages', 'assignWanted', 'endSession'] },
    ],
  },
  states: {
    // Another area of the site is on screen.
    away: {},
    login: {
      meta: { screen: 'login' },
      initial: 'editing',
      states: {
        editing: {
          on: { 'login.submit': { target: 'submitting', actions: 'clearMessages' } },
        },
        submitting: {
          tags: 'busy',
          invoke: {
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'login.submit');
              return { email: event.email, password: event.password };
            },
            onDone: [
              // SPEC 4: success stores the token and the passenger and goes to the redirect target or the bookings.
              {
                guard: { type: 'accepted', params: output },
                target: 'done',
                actions: [
                  assign({ bookings: null }),
                  { type: 'keepSession', params: ({ event }) => ({ session: sessionFrom(event.output)!, notice: LOGIN_OK }) },
                ],
              },
              { target: 'editing', actions: assign({ error: INVALID_CREDENTIALS }) },
            ],
            onError: { target: 'editing', actions: { type: 'assignError', params: failure } },
          },
        },
        done: {
          always: [
            { guard: 'redirectsInside', target: '#account.shown' },
            { target: '#account.away', actions: { type: 'leaveFor', params: ({ context }) => context.wanted! } },
          ],
        },
      },
    },
    // SPEC 4: the token is validated on each protected navigation.
    checking: {
      meta: { screen: 'wanted' },
      tags: 'busy',
      invoke: {
        src: 'validateToken',
        input: ({ context }) => ({ token: context.session!.token }),
        onDone: [
          { guard: { type: 'tokenValid', params: ({ event }) => ({ valid: event.output }) }, target: 'shown' },
          { target: 'login', actions: 'endSession' },
        ],
        // SPEC 2: a failed validity check counts as invalid.
        onError: { target: 'login', actions: 'endSession' },
      },
    },
    // A protected screen, by the wanted route.
    shown: {
      always: [
        { guard: { type: 'wantedIs', params: { route: 'myAccount' } }, target: 'myAccount' },
        { target: 'bookings' },
      ],
    },
    bookings: {
      meta: { screen: 'bookings' },
      initial: 'loading',
      entry: assign({ wanted: locationOfScreen('bookings') }),
      on: { logout: '#account.loggingOut' },
      after: { noticeShown: { actions: assign({ notice: null }) } },
      states: {
        loading: {
          invoke: {
            src: 'fetchBookings',
            input: ({ context }) => context.session!,
            onDone: { target: 'list', actions: assign({ bookings: ({ event }) => event.output }) },
            onError: [
              { guard: { type: 'sessionEnded', params: failure }, target: '#account.login', actions: 'endSession' },
              { target: 'failed', actions: { type: 'assignError', params: failure } },
            ],
          },
        },
        list: {},
        failed: { on: { 'bookings.retry': { target: 'loading', actions: 'clearMessages' } } },
      },
    },
    myAccount: {
      meta: { screen: 'myAccount' },
      initial: 'editing',
      entry: assign({ wanted: locationOfScreen('myAccount') }),
      on: { logout: '#account.loggingOut' },
      states: {
        editing: {
          on: {
            'profile.save': { target: 'saving', actions: 'clearMessages' },
            'message.dismissed': { actions: 'clearMessages' },
          },
          after: { noticeShown: { actions: assign({ notice: null }) } },
        },
        saving: {
          tags: 'busy',
          invoke: {
            src: 'updateProfile',
            input: ({ context, event }) => {
              assertEvent(event, 'profile.save');
              return { session: context.session!, profile: event.profile };
            },
            onDone: {
              target: 'editing',
              actions: {
                type: 'keepSession',
                params: ({ context, event }) => ({ session: { ...context.session!, passenger: event.output }, notice: PROFILE_UPDATED }),
              },
            },
            onError: [
              { guard: { type: 'sessionEnded', params: failure }, target: '#account.login', actions: 'endSession' },
              { target: 'editing', actions: { type: 'assignError', params: failure } },
            ],
          },
        },
      },
    },
    // SPEC 4: logout removes the token and details and goes to /, even when the call fails.
    loggingOut: {
      meta: { screen: 'wanted' },
      tags: 'busy',
      invoke: {
        src: 'logout',
        input: ({ context }) => ({ token: context.session!.token }),
        onDone: { target: 'away', actions: ['endSession', { type: 'leaveFor', params: locationOfScreen('home') }] },
        onError: { target: 'away', actions: ['endSession', { type: 'leaveFor', params: locationOfScreen('home') }] },
      },
    },
  },
});

function sessionFrom(answer: PassengerLoginResponse): Session | null {
  return answer.access_token && answer.passenger ? { token: answer.access_token, passenger: answer.passenger } : null;
}

export type AccountSnapshot = SnapshotFrom<typeof accountMachine>;
