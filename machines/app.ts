// The app (SPEC 1, 2 and 4 'Settings'): loads the settings once, owns the
// location (path and query), and runs the two areas of the site as children:
// the booking wizard (./booking.ts) and the corporate account (./account.ts);
// the pages around them (contact, fleet, terms...) are its own `site` state,
// which runs the contact form (./contact.ts). The areas whose code is a bundle
// of its own (the office's console, ./operator.ts; a passenger's booking,
// ./manage.ts; a driver's jobs, ./driver.ts) run as children once that code has
// loaded (`area.loaded`).
// Which child a location belongs to comes from the screen catalogue
// (src/domain/screens.ts); the address bar shows the active child's location
// (`locationOf`). While a child waits for an answer that decides the next
// screen (its 'busy' tag) a location change is ignored, and the web layer puts
// the address back.
import { assign, enqueueActions, sendTo, setup, type ActorRefFrom, type AnyActorLogic, type AnyActorRef, type SnapshotFrom } from 'xstate';
import type { Settings } from '../src/domain/settings';
import { bookingMachine, type StoredBooking } from './booking';
import { bookingLocation } from './bookingLocation';
import { accountMachine, type AccountToApp, type Session } from './account';
import { accountLocation } from './accountLocation';
import { contactMachine } from './contact';
import { areaOfPath, pathOfScreen, screenOfPath, type Area, type Location } from '../src/domain/screens';
import { errorText, isBusy, provided } from './shared';

export interface AppInput {
  location: Location;
  /** Browser storage, each value already checked against its schema. */
  stored: StoredBooking;
  session: Session | null;
  /**
   * The operator's settings as the server sent them with the page (decision 30), when it did: the app starts at
   * once with them instead of fetching GET /setting first.
   */
  settings?: Settings | null;
}

export interface AppContext {
  location: Location;
  settings: Settings;
  /** The settings came with the page (AppInput.settings). */
  settingsInPage: boolean;
  /** SPEC 8: a failed settings fetch is kept (and logged); the stored settings stay in use. */
  settingsError: string | null;
  stored: StoredBooking;
  session: Session | null;
  booking: ActorRefFrom<typeof bookingMachine> | null;
  account: ActorRefFrom<typeof accountMachine> | null;
  /**
   * The areas with a bundle of their own (the office's console, ./operator.ts; a passenger's booking, ./manage.ts; a
   * driver's jobs, ./driver.ts),
   * each spawned when its code has loaded (`area.loaded`), so the first page never carries them. Each one's
   * snapshot's `context.location` is where it is.
   */
  areas: Partial<Record<LazyArea, AnyActorRef>>;
}

/** The areas whose code loads when first opened. */
export type LazyArea = Extract<Area, 'operator' | 'manage' | 'driver'>;
export const LAZY_AREAS: readonly LazyArea[] = ['operator', 'manage', 'driver'];
const lazyAreaOf = (path: string): LazyArea | null => LAZY_AREAS.find((a) => a === areaOfPath(path)) ?? null;

export type AppEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'area.loaded'; area: LazyArea; logic: AnyActorLogic }
  | AccountToApp;

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
  },
  actors: {
    loadSettings: provided<Settings>('loadSettings'),
    booking: bookingMachine,
    account: accountMachine,
    contact: contactMachine,
  },
  actions: {
    /** Writes appSettings to browser storage (SPEC 7 'setting'); provided by the app. */
    storeSettings: (_, _params: { settings: Settings }) => {},
    /** Writes or removes passenger_token and passenger_corporate_details (SPEC 3); provided by the app. */
    storeSession: (_, _params: { session: Session | null }) => {},
    assignLocation: assign({
      location: ({ context, event }) => (event.type === 'url.changed' || event.type === 'navigate'
        ? { path: event.path, search: event.search } : context.location),
    }),
    startAreas: assign({
      booking: ({ context, spawn }) => spawn('booking', {
        id: 'booking',
        input: {
          path: areaOfPath(context.location.path) === 'wizard' ? context.location.path : pathOfScreen('home'),
          settings: context.settings, stored: context.stored, session: context.session,
        },
      }),
      account: ({ context, spawn }) => spawn('account', { id: 'account', input: { session: context.session } }),
    }),
    toBooking: sendTo(({ context }) => context.booking!, ({ context }) => ({ type: 'url.changed' as const, ...context.location })),
    toAccount: sendTo(({ context }) => context.account!, ({ context }) => ({ type: 'url.changed' as const, ...context.location })),
    /** The location, to the area that owns it when its code runs already. */
    toLazyAreaIfRunning: enqueueActions(({ context, enqueue }) => {
      const area = lazyAreaOf(context.location.path);
      const ref = area ? context.areas[area] : undefined;
      if (ref) enqueue.sendTo(ref, { type: 'url.changed', ...context.location });
    }),
    startLazyArea: assign({
      areas: ({ context, event, spawn }) => {
        if (event.type !== 'area.loaded' || context.areas[event.area] || lazyAreaOf(context.location.path) !== event.area) return context.areas;
        // The logic is the area's, known only once loaded: XState types an id only for logic named in setup().
        return { ...context.areas, [event.area]: spawn(event.logic, { id: event.area, input: { location: context.location } } as never) };
      },
    }),
    shareSession: sendTo(({ context }) => context.booking!, ({ event }) => ({
      type: 'session.changed' as const, session: event.type === 'session.changed' ? event.session : null,
    })),
  },
  guards: {
    busy: ({ context }) => isBusy(context.booking) || isBusy(context.account) || LAZY_AREAS.some((a) => isBusy(context.areas[a] ?? null)),
    onOperatorRoute: ({ context }) => areaOfPath(context.location.path) === 'operator',
    onManageRoute: ({ context }) => areaOfPath(context.location.path) === 'manage',
    onDriverRoute: ({ context }) => areaOfPath(context.location.path) === 'driver',
    onAccountRoute: ({ context }) => areaOfPath(context.location.path) === 'account',
    onSiteRoute: ({ context }) => areaOfPath(context.location.path) === 'site',
    settingsInPage: ({ context }) => context.settingsInPage,
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({
    location: input.location, settings: input.settings ?? input.stored.settings ?? {}, settingsInPage: Boolean(input.settings), settingsError: null,
    stored: input.stored, session: input.session, booking: null, account: null, areas: {},
  }),
  initial: 'start',
  states: {
    // Settings that came with the page are the loaded ones (and stored, as loaded ones are); else they are fetched.
    start: {
      always: [
        {
          guard: 'settingsInPage',
          target: 'ready',
          actions: { type: 'storeSettings', params: ({ context }) => ({ settings: context.settings }) },
        },
        { target: 'loading' },
      ],
    },
    // SPEC 1: 'Please wait while loading content' until the settings arrive. Nothing is on screen, so the web
    // layer sends no location yet: a Back or a link followed meanwhile reaches the machine once it is ready.
    loading: {
      invoke: {
        src: 'loadSettings',
        onDone: {
          target: 'ready',
          actions: [
            assign({ settings: ({ event }) => event.output }),
            { type: 'storeSettings', params: ({ event }) => ({ settings: event.output }) },
          ],
        },
        onError: { target: 'ready', actions: assign({ settingsError: ({ event }) => errorText(event.error) }) },
      },
    },
    ready: {
      entry: 'startAreas',
      initial: 'routing',
      on: {
        'url.changed': [{ guard: 'busy' }, { target: '.routing', actions: 'assignLocation' }],
        navigate: { target: '.routing', actions: 'assignLocation' },
        'session.changed': {
          actions: [
            assign({ session: ({ event }) => event.session }),
            { type: 'storeSession', params: ({ event }) => ({ session: event.session }) },
            'shareSession',
          ],
        },
      },
      states: {
        routing: {
          always: [
            { guard: 'onAccountRoute', target: 'account', actions: 'toAccount' },
            { guard: 'onOperatorRoute', target: 'operator' },
            { guard: 'onManageRoute', target: 'manage' },
            { guard: 'onDriverRoute', target: 'driver' },
            { guard: 'onSiteRoute', target: 'site' },
            { target: 'wizard', actions: 'toBooking' },
          ],
        },
        wizard: {},
        account: {},
        operator: {
          entry: 'toLazyAreaIfRunning',
          on: { 'area.loaded': { actions: 'startLazyArea' } },
        },
        manage: {
          entry: 'toLazyAreaIfRunning',
          on: { 'area.loaded': { actions: 'startLazyArea' } },
        },
        driver: {
          entry: 'toLazyAreaIfRunning',
          on: { 'area.loaded': { actions: 'startLazyArea' } },
        },
        site: {
          invoke: { id: 'contact', src: 'contact' },
        },
      },
    },
  },
});

export type AppSnapshot = SnapshotFrom<typeof appMachine>;
type BookingSnapshot = SnapshotFrom<typeof bookingMachine>;
type AccountSnapshot = SnapshotFrom<typeof accountMachine>;

/** The area on screen, or null while the settings load. */
export function areaOf(s: AppSnapshot): Area | null {
  if (s.matches({ ready: 'account' })) return 'account';
  if (s.matches({ ready: 'operator' })) return 'operator';
  if (s.matches({ ready: 'manage' })) return 'manage';
  if (s.matches({ ready: 'driver' })) return 'driver';
  if (s.matches({ ready: 'site' })) return 'site';
  if (s.matches({ ready: 'wizard' })) return 'wizard';
  return null;
}

/** The location the address bar should show: the active area's own (null while loading). */
export function locationOf(app: AppSnapshot, booking: BookingSnapshot | undefined, account: AccountSnapshot | undefined): Location | null {
  const area = areaOf(app);
  if (area === 'account' && account) return accountLocation(account);
  if (area === 'wizard' && booking) return bookingLocation(booking);
  if (area === 'site') return siteLocation(app);
  if (isLazyArea(area)) return lazyAreaLocation(app, area);
  return null;
}

export const isLazyArea = (area: Area | null): area is LazyArea => LAZY_AREAS.includes(area as LazyArea);

/** A lazily loaded area's location, or the one asked for while its code loads. */
export function lazyAreaLocation(app: AppSnapshot, area: LazyArea): Location {
  return (app.context.areas[area]?.getSnapshot() as { context?: { location?: Location } } | undefined)?.context?.location ?? app.context.location;
}

/** A page of the site area, under its own spelling of the path (paths match without case). */
export function siteLocation(app: AppSnapshot): Location {
  const screen = screenOfPath(app.context.location.path);
  return { path: screen ? pathOfScreen(screen) : app.context.location.path, search: '' };
}
