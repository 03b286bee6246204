// A driver's page at /driver (issue 41 §2): sign-in by a code texted to the driver's mobile, the jobs (today's, then
// upcoming), one job with the steps the server allows now (src/domain/driverJobs.ts: the page shows `job.steps`), those
// that cannot be undone confirmed first. The app machine (./app.ts) spawns it when the area's code has loaded and hands
// it every location under /driver as `url.changed`; the address bar shows `context.location`, set as each screen's state
// is entered. A call answered 401 (the session ended) signs the page out, keeping where it was to come back after sign-in.
import { and, assertEvent, assign, fromCallback, sendTo, setup, type SnapshotFrom } from 'xstate';
import { CONFIRMED_STEPS, STEP_LABELS, type JobStep } from '../src/domain/driverJobs';
import { sharesPosition } from '../src/domain/tracking';
import { locationOfScreen, pathWith, screenOfPath, paramsOf, type DriverScreen, type Location } from '../src/domain/screens';
import { errorText, failure, output, provided } from './shared';
import type { CallError, DriverContext, DriverEvent, DriverInput, DriverJob, DriverMember } from './driverTypes';
import { driverFoundItemMachine, type FoundItemOutput } from './driverFoundItem';

export type { CallError, DriverContext, DriverEvent, DriverInput, DriverJob, DriverMember, SharingState } from './driverTypes';

export const DRIVER_NOTICES = {
  signedOut: 'Please sign in again: your session has ended.',
  declined: (reference: string) => `You declined job ${reference}. The office has been told and will give it to another driver.`,
  stepped: (step: JobStep) => `Saved: ${STEP_LABELS[step]}.`,
  found: (number: string) => `Thank you. The office has the item on record as ${number}.`,
} as const;

const isSessionEnd = (e: unknown) => (e as CallError)?.status === 401;
const asCallError = (e: unknown): CallError => {
  const { field, status } = (typeof e === 'object' && e ? e : {}) as Partial<CallError>;
  return { message: errorText(e), ...(field ? { field } : {}), ...(status ? { status } : {}) };
};
/** A job's address: /driver/jobs/ and its reference, in capitals. */
const jobLocation = (reference: string): Location => ({ path: pathWith('driverJob', { reference }), search: '' });
/** A job whose car's position the page shares now: on the way or at the pickup, not cancelled. */
const shares = (job: DriverJob | null) => Boolean(job && sharesPosition(job.status) && !job.cancelled);
const referenceOf = (path: string) => (paramsOf('driverJob', path).reference ?? '').trim().toUpperCase();

/** Any call answered 401: the session ended; signed out, to come back here. */
const SESSION_ENDED = { guard: { type: 'sessionEnded', params: failure }, target: '#driver.signedOut', actions: 'sessionEnded' } as const;
const showError = <T extends string>(target: T) => ({ target, actions: { type: 'setError', params: failure } }) as const;

export const driverMachine = setup({
  types: {
    context: {} as DriverContext,
    events: {} as DriverEvent,
    input: {} as DriverInput,
    meta: {} as { screen?: DriverScreen },
  },
  actors: {
    /** The driver signed in on this device, or null. */
    getSession: provided<DriverMember | null>('getSession'),
    /** Texts a code to the mobile; the server's words (the same for any UK mobile). */
    requestCode: provided<string, { mobile: string }>('requestCode'),
    signIn: provided<DriverMember, { mobile: string; code: string }>('signIn'),
    signOut: provided<void>('signOut'),
    loadJobs: provided<DriverJob[]>('loadJobs'),
    loadJob: provided<DriverJob, { reference: string }>('loadJob'),
    /** Takes a step; the job as it is now, or null once declined (no longer the driver's). */
    takeStep: provided<DriverJob | null, { reference: string; step: JobStep }>('takeStep'),
    /**
     * While a job is open: told `share.update` { on } as the job moves, it sends the browser's position for the job every
     * POSITION_EVERY_SECONDS while on, and answers `share.status` (provided by the page; tests send it themselves).
     */
    sharePosition: fromCallback<{ type: 'share.update'; on: boolean }, { reference: string }>(() => () => {}),
    /** An item found in the car (issue 43 §3): its own form, ./driverFoundItem.ts. */
    foundItem: driverFoundItemMachine,
  },
  actions: {
    setLocation: assign({ location: (_, location: Location) => location }),
    setError: assign({ error: (_, { error }: { error: unknown }) => asCallError(error), notice: null }),
    clearMessages: assign({ error: null, notice: null }),
    setDriver: assign({ driver: (_, driver: DriverMember) => driver }),
    chooseStep: assign({ step: ({ event }) => (event.type === 'step.start' ? event.step : null) }),
    forgetStep: assign({ step: null }),
    /** The sharer is told whether the job, as it is now, is one whose position is shared. */
    tellSharer: sendTo('sharePosition', ({ context }) => ({ type: 'share.update' as const, on: shares(context.job) })),
    /** A job on the way shares from now ('starting' until the first position); any other shares nothing. */
    startSharing: assign({
      sharing: ({ context }) => (!shares(context.job) ? 'off' : context.sharing === 'off' ? 'starting' : context.sharing),
    }),
    /** What the sharer said; nothing is shared for a job that is not on the way. */
    takeSharing: assign({
      sharing: ({ context, event }) => {
        if (event.type !== 'share.status' || !shares(context.job)) return 'off';
        return event.status === 'stopped' ? 'off' : event.status;
      },
    }),
    /** Signed out on this device: nothing of the driver's is kept. */
    forgetDriver: assign({ driver: null, wanted: null, jobs: null, job: null, step: null, notice: null }),
    /** An address asked for while signed out: the page to open once signed in. */
    rememberLocation: assign({ wanted: ({ event }) => (event.type === 'url.changed' ? { path: event.path, search: event.search } : null) }),
    sessionEnded: assign({
      driver: null, jobs: null, job: null, step: null, codeSent: null, notice: null,
      error: { message: DRIVER_NOTICES.signedOut, status: 401 }, wanted: ({ context }) => context.location,
    }),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    notFound: (_, { error }: { error: unknown }) => (error as CallError)?.status === 404,
    conflict: (_, { error }: { error: unknown }) => (error as CallError)?.status === 409,
    signedIn: (_, driver: DriverMember | null) => driver !== null,
    onJob: ({ context }) => screenOfPath(context.location.path) === 'driverJob',
    /** A code was sent already: a new one refused leaves the code's screen open, saying why. */
    codeAsked: ({ context }) => context.codeSent !== null,
    /** The server offers this step now (`job.steps`). */
    offered: ({ context, event }) => event.type === 'step.start' && Boolean(context.job?.steps.includes(event.step)),
    /** A step that cannot be undone: "Are you sure?" first. */
    confirmed: ({ event }) => event.type === 'step.start' && CONFIRMED_STEPS.includes(event.step),
    declined: (_, job: DriverJob | null) => job === null,
    /** The server lets the driver report an item found in this job's car (the passenger has been on board). */
    foundOffered: ({ context }) => Boolean(context.job?.can_report_found),
    foundIs: (_, { found, kind }: { found: FoundItemOutput; kind: FoundItemOutput['kind'] }) => found.kind === kind,
  },
}).createMachine({
  id: 'driver',
  context: ({ input }) => ({
    location: input.location, wanted: input.location, driver: null, mobile: '', codeSent: null, jobs: null, reference: null,
    job: null, step: null, error: null, notice: null, sharing: 'off',
  }),
  initial: 'checking',
  states: {
    // Is this device signed in (the cookie is the browser's)? Meanwhile the address bar keeps what was asked for.
    checking: {
      tags: 'busy',
      invoke: {
        id: 'getSession',
        src: 'getSession',
        onDone: [
          { guard: { type: 'signedIn', params: output }, target: 'signedIn', actions: { type: 'setDriver', params: ({ event }) => event.output! } },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
    },
    // The mobile, then the code texted to it.
    signedOut: {
      meta: { screen: 'driverJobs' },
      entry: { type: 'setLocation', params: () => locationOfScreen('driverJobs') },
      on: { 'url.changed': { actions: 'rememberLocation' } },
      initial: 'mobile',
      states: {
        mobile: {
          on: { 'code.request': { target: 'sendingCode', actions: ['clearMessages', assign({ mobile: ({ event }) => event.mobile.trim(), codeSent: null })] } },
        },
        sendingCode: {
          tags: 'busy',
          invoke: {
            id: 'requestCode',
            src: 'requestCode',
            input: ({ context }) => ({ mobile: context.mobile }),
            onDone: { target: 'code', actions: assign({ codeSent: ({ event }) => event.output }) },
            onError: [{ guard: 'codeAsked', ...showError('code') }, showError('mobile')],
          },
        },
        code: {
          on: {
            'code.submit': { target: 'signingIn', actions: 'clearMessages' },
            'code.resend': { target: 'sendingCode', actions: 'clearMessages' },
            'code.back': { target: 'mobile', actions: ['clearMessages', assign({ codeSent: null })] },
          },
        },
        signingIn: {
          tags: 'busy',
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ context, event }) => {
              assertEvent(event, 'code.submit');
              return { mobile: context.mobile, code: event.code.trim() };
            },
            onDone: { target: '#driver.signedIn', actions: [{ type: 'setDriver', params: output }, assign({ codeSent: null, error: null })] },
            onError: showError('code'),
          },
        },
      },
    },
    signingOut: {
      tags: 'busy',
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: { target: 'signedOut', actions: ['forgetDriver', 'clearMessages'] },
        onError: { target: 'signedOut', actions: 'forgetDriver' },
      },
    },
    signedIn: {
      // Back to what was asked for before the sign-in (or where the session ended); else the jobs.
      entry: assign(({ context }) => ({ location: context.wanted ?? locationOfScreen('driverJobs'), wanted: null })),
      on: {
        'url.changed': { target: '.routing', actions: [{ type: 'setLocation', params: ({ event }) => ({ path: event.path, search: event.search }) }, 'clearMessages'] },
        'session.signOut': { target: 'signingOut' },
      },
      initial: 'routing',
      states: {
        routing: {
          always: [{ guard: 'onJob', target: 'job' }, { target: 'jobs' }],
        },
        jobs: {
          meta: { screen: 'driverJobs' },
          entry: { type: 'setLocation', params: () => locationOfScreen('driverJobs') },
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadJobs',
                src: 'loadJobs',
                onDone: { target: 'ready', actions: assign({ jobs: ({ event }) => event.output }) },
                onError: [SESSION_ENDED, showError('failed')],
              },
            },
            ready: { on: { 'jobs.refresh': { target: 'loading', actions: 'clearMessages' } } },
            failed: { on: { 'jobs.retry': { target: 'loading', actions: 'clearMessages' } } },
          },
          on: {
            'job.open': { target: 'job', actions: [{ type: 'setLocation', params: ({ event }) => jobLocation(event.reference) }, 'clearMessages'] },
          },
        },
        job: {
          meta: { screen: 'driverJob' },
          entry: assign(({ context }) => {
            const reference = referenceOf(context.location.path);
            return { reference, job: null, step: null, location: jobLocation(reference), sharing: 'off' as const };
          }),
          exit: assign({ sharing: 'off' }),
          invoke: { id: 'sharePosition', src: 'sharePosition', input: ({ context }) => ({ reference: context.reference! }) },
          on: { 'share.status': { actions: 'takeSharing' } },
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadJob',
                src: 'loadJob',
                input: ({ context }) => ({ reference: context.reference! }),
                onDone: { target: 'ready', actions: [assign({ job: ({ event }) => event.output }), 'tellSharer', 'startSharing'] },
                onError: [SESSION_ENDED, { guard: { type: 'notFound', params: failure }, target: 'notFound' }, showError('failed')],
              },
            },
            notFound: {},
            failed: { on: { 'job.retry': { target: 'loading', actions: 'clearMessages' } } },
            ready: {
              on: {
                'job.refresh': { target: 'loading', actions: 'clearMessages' },
                'found.start': { guard: 'foundOffered', target: 'reportingFound', actions: 'clearMessages' },
                'step.start': [
                  { guard: and(['offered', 'confirmed']), target: 'confirming', actions: ['clearMessages', 'chooseStep'] },
                  { guard: 'offered', target: 'stepping', actions: ['clearMessages', 'chooseStep'] },
                ],
              },
            },
            // The found item's form (./driverFoundItem.ts); sent, the page thanks the driver with the entry's number.
            reportingFound: {
              invoke: {
                id: 'foundItem',
                src: 'foundItem',
                input: ({ context }) => ({ reference: context.reference! }),
                onDone: [
                  { guard: { type: 'foundIs', params: ({ event }) => ({ found: event.output, kind: 'signedOut' as const }) }, target: '#driver.signedOut', actions: 'sessionEnded' },
                  {
                    guard: { type: 'foundIs', params: ({ event }) => ({ found: event.output, kind: 'reported' as const }) }, target: 'ready',
                    actions: assign({ notice: ({ event }) => DRIVER_NOTICES.found((event.output as { number: string }).number) }),
                  },
                  { target: 'ready' },
                ],
              },
            },
            confirming: {
              on: {
                'step.confirm': { target: 'stepping' },
                'step.cancel': { target: 'ready', actions: 'forgetStep' },
              },
            },
            stepping: {
              tags: 'busy',
              invoke: {
                id: 'takeStep',
                src: 'takeStep',
                input: ({ context }) => ({ reference: context.reference!, step: context.step! }),
                onDone: [
                  // Declined: the job is the office's again, and leaves the driver's list.
                  {
                    guard: { type: 'declined', params: output }, target: '#driver.signedIn.jobs',
                    actions: [assign({ job: null, notice: ({ context }) => DRIVER_NOTICES.declined(context.reference!) }), 'forgetStep'],
                  },
                  {
                    target: 'ready',
                    actions: [assign({ job: ({ event }) => event.output, notice: ({ context }) => DRIVER_NOTICES.stepped(context.step!) }), 'forgetStep', 'tellSharer', 'startSharing'],
                  },
                ],
                onError: [
                  SESSION_ENDED,
                  // The job moved on meanwhile (the office, another device): its message, and the job as it is now.
                  { guard: { type: 'conflict', params: failure }, target: 'loading', actions: [{ type: 'setError', params: failure }, 'forgetStep'] },
                  { target: 'ready', actions: [{ type: 'setError', params: failure }, 'forgetStep'] },
                ],
              },
            },
          },
        },
      },
    },
  },
});

export type DriverSnapshot = SnapshotFrom<typeof driverMachine>;

/** The screen the driver's page shows (its state's `meta.screen`), or null while the session is checked. */
export function driverScreen(s: DriverSnapshot): DriverScreen | null {
  for (const meta of Object.values(s.getMeta()) as { screen?: DriverScreen }[]) if (meta?.screen) return meta.screen;
  return null;
}
