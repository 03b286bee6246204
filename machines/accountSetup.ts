// The corporate account's setup (./account.ts): its types, services, actions, guards and delays, and the state of a
// page run as a child machine of its own (issue 44: Journeys and Invoices).
import { assertEvent, assign, enqueueActions, sendParent, setup, type AnyActorLogic, type AnyActorRef } from 'xstate';
import type { CorporateBooking, PassengerLoginResponse, PassengerProfile } from '../src/domain/schemas';
import { SESSION_ENDED } from '../src/domain/messages';
import { errorText, provided } from './shared';
import { locationOfScreen, needsSignIn, redirectTarget, screenOfPath, type AccountScreen, type Location } from '../src/domain/screens';

/** What a signed-in passenger keeps in browser storage (SPEC 3: passenger_token, passenger_corporate_details). */
export interface Session { token: string; passenger: PassengerProfile }

export interface AccountInput { session: Session | null }

/** The password goes only with a new e-mail (issue 24), and only to the call: it is never kept in the context. */
export interface ProfileChange { name: string; email: string; phone: string; currentPassword?: string }

/** The corporate area's pages run as child machines (issue 44), started with the session. */
export type AccountPage = Extract<AccountScreen, 'journeys' | 'invoices'>;
export interface AccountPageInput { session: Session }
/** A page ends only when one of its calls was answered 401: the session has ended. */
export interface AccountPageOutput { sessionEnded: true }

export type AccountEvent =
  | { type: 'url.changed'; path: string; search: string }
  /** A page's machine, handed over by its view once the area's code runs (as the app is handed a lazy area's). */
  | { type: 'page.loaded'; screen: AccountPage; logic: AnyActorLogic }
  | { type: 'login.submit'; email: string; password: string }
  | { type: 'profile.save'; profile: ProfileChange }
  | { type: 'bookings.retry' }
  | { type: 'logout' }
  | { type: 'message.dismissed' }
  /** What a page's machine tells when it ends (its output). */
  | { type: 'xstate.done.actor.page'; output: AccountPageOutput };

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
  /** The page's machine while Journeys or Invoices is on screen (its `id` is 'page'). */
  page: AnyActorRef | null;
}

export const isProtected = (l: Location | null): l is Location => {
  const screen = l === null ? null : screenOfPath(l.path);
  return screen !== null && needsSignIn(screen);
};
export const locationOf = (e: AccountEvent): Location => (e.type === 'url.changed' ? { path: e.path, search: e.search } : locationOfScreen('home'));

export const accountSetup = setup({
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
    startPage: assign({
      page: ({ context, event, spawn }) => {
        assertEvent(event, 'page.loaded');
        // The logic is the page's, known only once its code runs: XState types an id only for logic named in setup().
        return spawn(event.logic, { id: 'page', input: { session: context.session! } satisfies AccountPageInput } as never);
      },
    }),
    stopPage: enqueueActions(({ context, enqueue }) => {
      if (context.page) enqueue.stopChild(context.page);
      enqueue.assign({ page: null });
    }),
  },
  guards: {
    wants: ({ event }, params: { route: AccountScreen }) => screenOfPath(locationOf(event).path) === params.route,
    wantedIs: ({ context }, params: { route: AccountScreen }) => screenOfPath(context.wanted?.path ?? '') === params.route,
    signedIn: ({ context }) => context.session !== null,
    accepted: (_, answer: PassengerLoginResponse) => answer.success === true && sessionFrom(answer) !== null,
    tokenValid: (_, { valid }: { valid: boolean }) => valid === true,
    sessionEnded: (_, { error }: { error: unknown }) => errorText(error) === SESSION_ENDED,
    redirectsInside: ({ context }) => context.wanted === null || isProtected(context.wanted),
    /** The page's code for the screen on show, and no page running yet. */
    pageFor: ({ context, event }, params: { screen: AccountPage }) => event.type === 'page.loaded' && event.screen === params.screen && context.page === null,
  },
  delays: {
    /** How long 'Login Successfully' and 'Passenger Details Updated' stay on screen. */
    noticeShown: 4000,
  },
});

/**
 * Journeys or Invoices (issue 44): its page's machine runs from when its view hands it over until the screen is left;
 * a page that ends (a call answered 401) ends the session, to come back here after signing in.
 */
export const pageState = (screen: AccountPage) => accountSetup.createStateConfig({
  meta: { screen },
  entry: assign({ wanted: locationOfScreen(screen) }),
  exit: 'stopPage',
  // 'Login Successfully', when the sign-in led here, stays on screen for a while, as on the bookings.
  after: { noticeShown: { actions: assign({ notice: null }) } },
  on: {
    logout: '#account.loggingOut',
    'page.loaded': { guard: { type: 'pageFor', params: { screen } }, actions: 'startPage' },
    'xstate.done.actor.page': { target: '#account.login', actions: 'endSession' },
  },
});

export function sessionFrom(answer: PassengerLoginResponse): Session | null {
  return answer.access_token && answer.passenger ? { token: answer.access_token, passenger: answer.passenger } : null;
}
