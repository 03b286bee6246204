// The corporate account (SPEC 2 'Login', 'Bookings (corporate)', 'Profile',
// 'Route guard'; SPEC 4 'Sign-in'): sign in, the bookings list, the profile,
// logout; and issue 44's Journeys and Invoices, each a page run as a child
// machine of its own (./accountJourneys.ts, ./accountInvoices.ts) whose code
// comes with the area's views (`page.loaded`), never with the first page. Its
// types, services, actions and guards are ./accountSetup.ts's. The app machine
// hands it every location on an account route as `url.changed`; a protected
// screen is shown only after the stored token was validated for this
// navigation. Where the visitor goes outside the account area (after logout,
// or a redirect to a wizard page), and every change of the session, it tells
// the app with `sendParent`; the app stores the session and shares it with the
// wizard.
import { assertEvent, assign, type SnapshotFrom } from 'xstate';
import { INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED } from '../src/domain/messages';
import { failure, output } from './shared';
import { locationOfScreen } from '../src/domain/screens';
import { accountSetup, pageState, sessionFrom } from './accountSetup';

export type {
  AccountContext, AccountEvent, AccountInput, AccountPage, AccountPageInput, AccountPageOutput, AccountToApp, ProfileChange, Session,
} from './accountSetup';

export const accountMachine = accountSetup.createMachine({
  id: 'account',
  context: ({ input }) => ({ session: input.session, wanted: null, bookings: null, error: null, notice: null, page: null }),
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
        { guard: { type: 'wantedIs', params: { route: 'journeys' } }, target: 'journeys' },
        { guard: { type: 'wantedIs', params: { route: 'invoices' } }, target: 'invoices' },
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
    journeys: pageState('journeys'),
    invoices: pageState('invoices'),
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

export type AccountSnapshot = SnapshotFrom<typeof accountMachine>;
