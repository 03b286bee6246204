// The model of machines/driver.ts (a driver's page, issue 41 §2) that paths are generated from
// (test/machine/modelPaths.ts): the events a test may send, the inputs it starts from, and the facts of the issue each
// state keeps, worked out from the events of the path.
import { expect } from 'vitest';
import { DRIVER_NOTICES, driverMachine, driverScreen, type DriverEvent, type DriverInput, type DriverJob, type DriverSnapshot } from '../../../machines/driver';
import { CONFIRMED_STEPS, STEP_LABELS, type JobStep } from '../../../src/domain/driverJobs';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';

export const getSession = answers(driverMachine, 'getSession');
export const requestCode = answers(driverMachine, 'requestCode');
export const signIn = answers(driverMachine, 'signIn');
export const signOut = answers(driverMachine, 'signOut');
export const loadJobs = answers(driverMachine, 'loadJobs');
export const loadJob = answers(driverMachine, 'loadJob');
export const takeStep = answers(driverMachine, 'takeStep');
/** The found item's form (machines/driverFoundItem.ts, its own model ./driverFoundItem.ts): answered here as it ends. */
export const foundItem = answers(driverMachine, 'foundItem');
export const SERVICES = ['getSession', 'requestCode', 'signIn', 'signOut', 'loadJobs', 'loadJob', 'takeStep', 'foundItem'] as const;

export const url = (path: string): DriverEvent => ({ type: 'url.changed', path, search: '' });

export const REF = 'BK-ABCDEFGH';
export const MOBILE = '07700 900101';
export const CODE = '123456';
export const daniel = { name: 'Daniel Price', company_name: 'Albion Executive Cars' };
export const CODE_SENT = 'If this number is on our record, a 6-digit code is on its way by text. It works for 10 minutes.';
export const SIGNED_OUT = 'Please sign in again: your session has ended.';

const base: DriverJob = {
  reference: REF, status: 'assigned', status_label: 'Waiting for the driver to accept', cancelled: false, finished: false,
  pickup_date: '2030-09-12', pickup_time: '07:15', pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', stops: [],
  dropoff: 'Trafalgar Square, London WC2N 5DN', hourly: null, flight: 'BA 117', sign: 'Eleanor Whitfield', passengers: 2,
  luggage: '1 suitcase, 0 hand luggage', extras: ['Meet and Greet'], notes: '', passenger_name: 'Eleanor Whitfield',
  passenger_phone: '+447700900321', collect: '£62.00', vehicle: 'Saloon', car: 'White Toyota Prius, LF68 TXI', steps: ['accepted', 'declined'], no_show_from: null, flight_status: null,
  can_report_found: false,
};
/** A new job: Accept or Decline. */
export const assigned = base;
/** Accepted: On my way next. */
export const accepted: DriverJob = { ...base, status: 'accepted', status_label: 'Accepted by the driver', steps: ['on_way'] };
/** At the pickup with free waiting left: Passenger on board only, No-show later. */
export const arrived: DriverJob = {
  ...base, status: 'arrived', status_label: 'Driver at the pickup', steps: ['on_board'], no_show_from: '2030-09-12T06:45:00.000Z',
};
/** On the way: its position is shared (issue 41 §3). */
export const onTheWay: DriverJob = { ...base, status: 'on_way', status_label: 'Driver on the way', steps: ['arrived'] };
/** The passenger on board (issue 43 §3): Completed next, and an item found in the car may be reported. */
export const onBoard: DriverJob = { ...base, status: 'on_board', status_label: 'Passenger on board', steps: ['completed'], can_report_found: true };
export const FOUND = 'LP-0042';
/** Cancelled by the office: no step. */
export const cancelled: DriverJob = { ...base, status: 'accepted', status_label: 'Accepted by the driver', cancelled: true, steps: [] };

/** A refusal as the page's calls throw it (src/web/views/driver/driverApi.ts): its message, status and field. */
export const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
export const ended = refusal(SIGNED_OUT, { status: 401 });
export const badMobile = refusal('Enter the UK mobile number the office has for you, e.g. 07700 900123.', { status: 422, field: 'mobile' });
export const tooOften = refusal('Too many codes asked for. Please wait a few minutes.', { status: 429 });
export const wrongCode = refusal('That code is not right or has expired. Check the text, or ask for a new code.', { status: 422, field: 'code' });
export const notYours = refusal(`No job ${REF} of yours.`, { status: 404 });
export const conflict = refusal('This job was cancelled by the office.', { status: 409 });

export const EVENTS: ModelEvent<DriverEvent>[] = [
  url('/driver'),
  url('/driver/jobs/bk-abcdefgh'),
  getSession.done(daniel),
  getSession.done(null),
  getSession.fails(down),
  { type: 'code.request', mobile: MOBILE },
  requestCode.done(CODE_SENT),
  requestCode.fails(badMobile),
  requestCode.fails(tooOften),
  { type: 'code.resend' },
  { type: 'code.back' },
  { type: 'code.submit', code: CODE },
  signIn.done(daniel),
  signIn.fails(wrongCode),
  { type: 'session.signOut' },
  signOut.done(),
  signOut.fails(down),
  loadJobs.done([assigned]),
  loadJobs.done([]),
  loadJobs.fails(ended),
  loadJobs.fails(down),
  { type: 'jobs.refresh' },
  { type: 'jobs.retry' },
  { type: 'job.retry' },
  { type: 'job.open', reference: REF },
  loadJob.done(assigned),
  loadJob.done(arrived),
  loadJob.done(cancelled),
  loadJob.done(onTheWay),
  loadJob.done(onBoard),
  loadJob.fails(notYours),
  loadJob.fails(ended),
  loadJob.fails(down),
  { type: 'job.refresh' },
  { type: 'step.start', step: 'accepted' },
  { type: 'step.start', step: 'declined' },
  { type: 'step.start', step: 'on_way' },
  { type: 'step.confirm' },
  { type: 'step.cancel' },
  takeStep.done(accepted),
  takeStep.done(null),
  takeStep.done(onTheWay),
  { type: 'share.status', status: 'on' },
  { type: 'share.status', status: 'denied' },
  { type: 'share.status', status: 'stopped' },
  takeStep.fails(conflict),
  takeStep.fails(ended),
  takeStep.fails(down),
  { type: 'found.start' },
  foundItem.done({ kind: 'reported', number: FOUND }),
  foundItem.done({ kind: 'cancelled' }),
  foundItem.done({ kind: 'signedOut' }),
];

export const INPUTS: Record<string, DriverInput> = {
  'a visit to /driver': { location: { path: '/driver', search: '' } },
  'a job typed in the address': { location: { path: '/driver/jobs/bk-abcdefgh', search: '' } },
};

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, answer: { type: string }) => e?.type === answer.type;
const failed = (e: ModelEvent | undefined, service: { fails: (x: unknown) => { type: string } }) => e?.type === service.fails(null).type;
const statusOf = (e: ModelEvent | undefined) => (e as Answer | undefined)?.error?.status;
const outputOf = <T>(e: ModelEvent | undefined) => (e as Answer | undefined)?.output as T;
const lastOf = <T extends DriverEvent['type']>(trail: Trail<DriverSnapshot>, type: T) =>
  trail.findLast((x) => x.event.type === type)?.event as Extract<DriverEvent, { type: T }> | undefined;
const JOB_CALLS = [loadJobs, loadJob, takeStep];
/** The found item's form closed as `kind` says. */
const foundEnded = (e: ModelEvent | undefined, kind: string) => is(e, foundItem.done()) && outputOf<{ kind: string }>(e)?.kind === kind;

/** Signed in by the path's events: a session found or a sign-in accepted, not ended since by a 401 or a sign-out. */
export function signedIn(trail: Trail<DriverSnapshot>): boolean {
  let on = false;
  for (const { event: e } of trail) {
    if ((is(e, getSession.done()) && outputOf(e) !== null) || is(e, signIn.done())) on = true;
    if (statusOf(e) === 401 && JOB_CALLS.some((c) => failed(e, c))) on = false;
    if (foundEnded(e, 'signedOut')) on = false;
    if (is(e, signOut.done()) || failed(e, signOut)) on = false;
  }
  return on;
}

/** An address as the page writes it: a job's reference in capitals; /driver/jobs is the list. */
export const placeOf = (path: string) => (path === '/driver/jobs' ? '/driver' : path.replace(/^\/driver\/jobs\/(.+)$/, (_m, r: string) => `/driver/jobs/${r.toUpperCase()}`));

/**
 * The page the driver is on, or asked for, by the path's events: where the page must be once signed in (the address
 * asked for, or the job open when the session ended); after a sign-out or a job declined, the list.
 */
export function pageOf(trail: Trail<DriverSnapshot>, input: DriverInput): string {
  let at = input.location.path;
  for (const { event: e } of trail) {
    if (e.type === 'url.changed') at = (e as unknown as { path: string }).path;
    if (e.type === 'job.open') at = `/driver/jobs/${(e as unknown as { reference: string }).reference}`;
    if (is(e, signOut.done()) || failed(e, signOut) || (is(e, takeStep.done()) && outputOf(e) === null)) at = '/driver';
  }
  return placeOf(at);
}

/** Each call asks for what the driver gave: the mobile, the code, the job on screen, the step tapped. */
export function asksWhatWasGiven(s: DriverSnapshot, trail: Trail<DriverSnapshot>) {
  const want: Record<string, () => unknown> = {
    requestCode: () => ({ mobile: lastOf(trail, 'code.request')?.mobile.trim() }),
    signIn: () => ({ mobile: lastOf(trail, 'code.request')?.mobile.trim(), code: lastOf(trail, 'code.submit')?.code }),
    loadJob: () => ({ reference: REF }),
    takeStep: () => ({ reference: REF, step: lastOf(trail, 'step.start')?.step }),
  };
  for (const [service, given] of Object.entries(callsOpen(s))) {
    if (want[service]) expect(given, `${service} is asked for what the driver gave`).toEqual(want[service]());
  }
}

/** A driver's act that the page acts on clears what the last one said (an error, a notice). */
const CLEARING = ['code.request', 'code.resend', 'code.back', 'code.submit', 'jobs.refresh', 'job.refresh', 'jobs.retry', 'job.retry', 'job.open', 'step.start', 'found.start'];

export function spec(s: DriverSnapshot, trail: Trail<DriverSnapshot>, input: DriverInput) {
  asksWhatWasGiven(s, trail);
  expect(s.status).toBe('active');
  const c = s.context;
  const last = trail.at(-1)?.event;
  const prev = trail.at(-2)?.state;
  const on = signedIn(trail);
  const checked = trail.some((x) => is(x.event, getSession.done()) || failed(x.event, getSession));

  // Nobody sees a job before the session is known; meanwhile the address is the one asked for.
  if (!checked) {
    expect([s.value, c.location]).toEqual(['checking', input.location]);
    return;
  }
  expect(c.driver !== null, 'signed in').toBe(on || s.matches('signingOut'));
  if (!on && !s.matches('signingOut')) {
    // Signed out: the sign-in, at /driver, whatever was asked for.
    expect([s.matches('signedOut'), driverScreen(s), c.location]).toEqual([true, 'driverJobs', { path: '/driver', search: '' }]);
    expect([c.jobs, c.job]).toEqual([null, null]);
  }
  // A session that ended says so, and the page comes back to where it was after the next sign-in.
  if (statusOf(last) === 401 || foundEnded(last, 'signedOut')) {
    expect([s.value, c.error?.message]).toEqual([{ signedOut: 'mobile' }, SIGNED_OUT]);
    expect(c.wanted?.path).toBe(pageOf(trail, input));
  }
  // Signed out, an address typed is kept for after the sign-in.
  if (last?.type === 'url.changed' && s.matches('signedOut')) expect(c.wanted).toEqual({ path: (last as unknown as { path: string }).path, search: '' });

  // The code: asked for the mobile typed; its answer is the server's words; a refusal shows where it was asked.
  if (is(last, requestCode.done())) expect([s.value, c.codeSent]).toEqual([{ signedOut: 'code' }, CODE_SENT]);
  if (failed(last, requestCode)) {
    const resent = prev?.context.codeSent !== null && prev?.context.codeSent !== undefined;
    expect([s.value, c.error?.message, c.error?.field]).toEqual([{ signedOut: resent ? 'code' : 'mobile' }, (last as Answer).error!.message, (last as Answer).error!.field]);
  }
  if (failed(last, signIn)) expect([s.value, c.error?.field]).toEqual([{ signedOut: 'code' }, 'code']);
  if (last?.type === 'code.back') expect([s.value, c.codeSent]).toEqual([{ signedOut: 'mobile' }, null]);
  if (s.matches({ signedOut: 'code' }) || s.matches({ signedOut: 'signingIn' })) expect(c.mobile).toBe(lastOf(trail, 'code.request')?.mobile);

  if (last && prev && CLEARING.includes(last.type) && JSON.stringify(prev.value) !== JSON.stringify(s.value)) {
    expect([c.error, c.notice], `${last.type} clears the messages`).toEqual([null, null]);
  }
  if (last?.type === 'url.changed' && on && prev?.matches('signedIn')) expect([c.error, c.notice]).toEqual([null, null]);

  if (on) {
    // Each screen under its own address: the list at /driver, a job under its reference in capitals.
    if (s.matches({ signedIn: 'jobs' })) expect([driverScreen(s), c.location]).toEqual(['driverJobs', { path: '/driver', search: '' }]);
    if (s.matches({ signedIn: 'job' })) {
      expect([driverScreen(s), c.reference, c.location]).toEqual(['driverJob', REF, { path: `/driver/jobs/${REF}`, search: '' }]);
    }
    // Signing in (or finding the session) opens the page asked for.
    const opened = trail.findLastIndex((x) => is(x.event, signIn.done()) || (is(x.event, getSession.done()) && outputOf(x.event) !== null));
    const since = trail.slice(opened + 1);
    if (opened >= 0 && !since.some((x) => ['url.changed', 'job.open'].includes(x.event.type) || (is(x.event, takeStep.done()) && outputOf(x.event) === null))) {
      expect(c.location.path).toBe(pageOf(trail.slice(0, opened), input));
    }
  }
  if (is(last, loadJobs.done())) expect([s.value, c.jobs]).toEqual([{ signedIn: { jobs: 'ready' } }, outputOf(last)]);
  if (failed(last, loadJob) && statusOf(last) === 404) expect(s.value).toEqual({ signedIn: { job: 'notFound' } });
  if (is(last, loadJob.done())) expect([s.value, c.job]).toEqual([{ signedIn: { job: 'ready' } }, outputOf(last)]);

  // The buttons are the server's: a step it does not offer now is not taken; one that cannot be undone is confirmed.
  if (last?.type === 'step.start') {
    const { step } = last as unknown as { step: JobStep };
    const offered = prev?.matches({ signedIn: { job: 'ready' } }) && prev.context.job?.steps.includes(step);
    if (!offered) expect(s.matches({ signedIn: { job: 'confirming' } }) || s.matches({ signedIn: { job: 'stepping' } })).toBe(false);
    else expect(s.value).toEqual({ signedIn: { job: CONFIRMED_STEPS.includes(step) ? 'confirming' : 'stepping' } });
  }
  if (s.matches({ signedIn: { job: 'confirming' } })) expect(CONFIRMED_STEPS).toContain(c.step);
  if (s.matches({ signedIn: { job: 'stepping' } })) expect(c.job?.steps).toContain(c.step);
  if (last?.type === 'step.cancel') expect([s.value, c.step]).toEqual([{ signedIn: { job: 'ready' } }, null]);
  // A step taken: the job as the server has it now; declined, it leaves the driver's list.
  if (is(last, takeStep.done())) {
    const job = outputOf<DriverJob | null>(last);
    const step = lastOf(trail, 'step.start')!.step;
    if (job) expect([s.value, c.job, c.notice]).toEqual([{ signedIn: { job: 'ready' } }, job, `Saved: ${STEP_LABELS[step]}.`]);
    else expect([s.value, c.location.path, c.notice]).toEqual([{ signedIn: { jobs: 'loading' } }, '/driver', DRIVER_NOTICES.declined(REF)]);
  }
  // Moved on meanwhile (409): its message, and the job loaded again; any other refusal leaves the job as it was.
  if (failed(last, takeStep) && statusOf(last) === 409) expect([s.value, c.error?.message]).toEqual([{ signedIn: { job: 'loading' } }, conflict.message]);
  if (failed(last, takeStep) && !statusOf(last)) expect([s.value, c.error?.message]).toEqual([{ signedIn: { job: 'ready' } }, (last as Answer).error!.message]);
  if (is(last, signOut.done()) || failed(last, signOut)) expect([c.driver, c.wanted]).toEqual([null, null]);
  foundFacts(s, trail);
  sharingFacts(s, trail);
}

/**
 * Issue 43 §3: the found item's form opens only on a job the server says may take one (the passenger has been on
 * board), with the job's reference; sent, the page thanks the driver with the entry's number; given up, nothing is said.
 */
function foundFacts(s: DriverSnapshot, trail: Trail<DriverSnapshot>) {
  const c = s.context;
  const last = trail.at(-1)?.event;
  const prev = trail.at(-2)?.state;
  if (last?.type === 'found.start') {
    const offered = prev?.matches({ signedIn: { job: 'ready' } }) && prev.context.job?.can_report_found;
    expect(s.matches({ signedIn: { job: 'reportingFound' } })).toBe(Boolean(offered));
  }
  if (s.matches({ signedIn: { job: 'reportingFound' } })) {
    expect(c.job?.can_report_found).toBe(true);
    // Started with the job's reference (read where the form runs: the replays on a real actor).
    const form = callsOpen(s).foundItem;
    if (form !== undefined) expect(form).toEqual({ reference: REF });
  }
  if (foundEnded(last, 'reported')) expect([s.value, c.notice]).toEqual([{ signedIn: { job: 'ready' } }, DRIVER_NOTICES.found(FOUND)]);
  if (foundEnded(last, 'cancelled')) expect([s.value, c.notice, c.error]).toEqual([{ signedIn: { job: 'ready' } }, null, null]);
}

const SHARING = ['on_way', 'arrived'];
const sharesNow = (job: DriverJob | null) => Boolean(job && SHARING.includes(job.status) && !job.cancelled);

/**
 * Issue 41 §3: the car's position is shared only while a job on the way or at the pickup is open, never for another
 * job or screen; the page says what the sharer last said ('starting' until then), and 'stopped' ends it.
 */
function sharingFacts(s: DriverSnapshot, trail: Trail<DriverSnapshot>) {
  const c = s.context;
  const onJob = s.matches({ signedIn: 'job' });
  expect(Boolean(s.children.sharePosition), 'a sharer runs while a job is open, and only then').toBe(onJob);
  if (!onJob || !sharesNow(c.job)) { expect(c.sharing).toBe('off'); return; }
  const last = trail.at(-1)?.event;
  if (last?.type === 'share.status') {
    const { status } = last as unknown as { status: string };
    expect(c.sharing).toBe(status === 'stopped' ? 'off' : status);
  }
  const before = trail.at(-2)?.state;
  if ((is(last, loadJob.done()) || is(last, takeStep.done())) && before && !sharesNow(before.context.job)) expect(c.sharing).toBe('starting');
}

/**
 * Issue 41 §2's page: the mobile's "Text me a code"; the code's "Sign in", "Send a new code" and "Use another number";
 * signed in, "Sign out"; the list's Refresh and its jobs; a job's Refresh and one button per step the server sends; the
 * confirm window's two answers; "Try again" after a failed load.
 */
export function offers(s: DriverSnapshot): ModelEvent<DriverEvent>[] {
  if (s.matches({ signedOut: 'mobile' })) return [{ type: 'code.request', mobile: MOBILE }];
  if (s.matches({ signedOut: 'code' })) return [{ type: 'code.submit', code: CODE }, { type: 'code.resend' }, { type: 'code.back' }];
  if (!s.matches('signedIn')) return [];
  const out: ModelEvent<DriverEvent>[] = [{ type: 'session.signOut' }];
  if (s.matches({ signedIn: { jobs: 'ready' } })) out.push({ type: 'jobs.refresh' }, ...(s.context.jobs ?? []).map((j) => ({ type: 'job.open' as const, reference: j.reference })));
  if (s.matches({ signedIn: { jobs: 'failed' } })) out.push({ type: 'jobs.retry' });
  if (s.matches({ signedIn: { job: 'failed' } })) out.push({ type: 'job.retry' });
  if (s.matches({ signedIn: { job: 'ready' } })) out.push({ type: 'job.refresh' }, ...(s.context.job?.steps ?? []).map((step) => ({ type: 'step.start' as const, step })));
  if (s.matches({ signedIn: { job: 'ready' } }) && s.context.job?.can_report_found) out.push({ type: 'found.start' });
  if (s.matches({ signedIn: { job: 'confirming' } })) out.push({ type: 'step.confirm' }, { type: 'step.cancel' });
  return out;
}

export const model: Model<typeof driverMachine> = {
  name: 'driver machine',
  machine: driverMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([
    s.value, s.context.location, s.context.wanted, s.context.driver !== null, s.context.mobile, s.context.codeSent,
    s.context.jobs?.length ?? null, s.context.reference, s.context.job?.status ?? null, s.context.job?.cancelled ?? null,
    s.context.step, s.context.error?.message ?? null, s.context.notice, s.context.sharing, s.context.job?.can_report_found ?? null,
  ]),
  facts: spec,
  factsTitle: "issue 41's driver page: the code sign-in, the addresses, the jobs and their steps",
  offers,
  deciding: ['getSession', 'requestCode', 'signIn', 'signOut', 'takeStep'],
  services: SERVICES,
  depth: () => 6,
};
