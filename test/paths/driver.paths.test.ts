// The driver's page's generated paths in Chromium (./pathRunner.ts), issue 41 §2: the code sign-in, the jobs, a job
// and its steps, on the real page against the real server, as the demo driver Daniel Price (Albion Executive Cars).
// Each path has a job of its own: a booking of Albion's, three weeks ahead, given to Daniel Price and LB19 XKE by the
// office. The server's answers are real where the demo gives them (a code texted to the SMS folder and read from it, a
// wrong code, a mobile that is no UK mobile, the session, the job as dispatched, signing out); the rest are asked of it
// (a dropped call, an ended session, a job at another step, a list of one job, a step's answer, so that the job on
// the server stays as dispatched for the path's next loads).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { CONFIRMED_STEPS, JOB_STEPS, STEP_LABELS, type JobStep } from '../../src/domain/driverJobs';
import type { DriverJob, DriverSnapshot } from '../../machines/driver';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { CODE_SENT, FOUND, REF, SIGNED_OUT, foundItem, getSession, loadJob, loadJobs, model, requestCode, signIn, signOut, takeStep } from '../machine/models/driver';
import { DRIVER_NOTICES } from '../../machines/driver';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, serviceOf, type Expected, type Seen } from './screens';
import { API_HEADERS } from './server';
import { trip } from './data';
import { ukDateInDays } from '../e2e/harness';
import type { BookingResponse, PriceDetail, PriceResponse } from '../../src/domain/schemas';

type Answer = { type: string; output?: unknown; error?: Error & { status?: number; field?: string } };
type Service = { done: (o?: unknown) => { type: string } };
const API = '/api/v1';
const DRIVER = `${API}/driver`;
const [ADMIN] = DEMO_STAFF;
/** The demo's Daniel Price (src/server/operator/seedDrivers.ts), as he types his mobile and as texts are sent to it. */
const MOBILE = '07700 900101';
const MOBILE_E164 = '+447700900101';
/** A number that is no UK mobile: the server refuses it, naming the field. */
const LANDLINE = '020 7946 0321';

const isAnswer = (e: ModelEvent | undefined, service: Service) =>
  !!e && (e.type === service.done().type || e.type === service.done().type.replace('done', 'error'));
const answerFrom = (then: ModelEvent[], service: Service) => then.find((e) => isAnswer(e, service)) as Answer | undefined;

async function failAs(p: PathPage, method: string, at: string, error: Answer['error']) {
  if (error?.status) await p.server.fault({ method, path: at, kind: 'status', status: error.status, message: error.message, field: error.field });
  else await p.server.fault({ method, path: at, kind: 'drop' });
}

const ref = (p: PathPage) => p.data.reference as string;
/** A job of the model, as this path's job: its reference. */
const asPaths = (p: PathPage, job: DriverJob | null) => (job ? { ...job, reference: ref(p) } : null);

// --- The path's job: a booking of Albion's, given to Daniel Price by the office ------------------------------------

const staffCookie = new Map<string, string>();
async function staffCall<T>(p: PathPage, method: string, at: string, body?: unknown): Promise<T> {
  if (!staffCookie.has(p.server.url)) {
    const res = await fetch(`${p.server.url}${API}/operator/session`, { method: 'POST', headers: API_HEADERS, body: JSON.stringify(ADMIN) });
    staffCookie.set(p.server.url, res.headers.get('set-cookie')!.split(';')[0]);
  }
  const res = await fetch(`${p.server.url}${API}${at}`, {
    method, headers: { ...API_HEADERS, cookie: staffCookie.get(p.server.url)! }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json()) as T & { message?: string };
  if (!res.ok) throw new Error(`${method} ${at}: ${res.status} ${data.message ?? ''}`);
  return data;
}

async function dispatchedJob(p: PathPage): Promise<string> {
  const form = { ...trip(), pickup_date: ukDateInDays(21) };
  const prices = (await p.server.call<PriceResponse>('POST', '/calculate-distance-price', form)).price_details;
  const vehicle = prices.find((x: PriceDetail) => x.company_name === 'Albion Executive Cars' && x.vehicle_type === 'Saloon')!;
  const made = await p.server.call<BookingResponse>('POST', '/booking', {
    selectedVehicleData: vehicle, bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Eleanor', surname: 'Whitfield', number: '07700 900321', email: `driver-path-${Date.now()}@example.com`, additionalInfo: '' },
  });
  const reference = made.data!.booking.booking_number;
  const { data: { drivers } } = await staffCall<{ data: { drivers: { id: number; name: string }[] } }>(p, 'GET', '/operator/data/drivers');
  const { data: { cars } } = await staffCall<{ data: { cars: { id: number; registration: string }[] } }>(p, 'GET', '/operator/data/cars');
  await staffCall(p, 'POST', `/operator/bookings/${reference}/driver`, {
    driver_id: String(drivers.find((d) => d.name === 'Daniel Price')!.id), car_id: String(cars.find((c) => c.registration === 'LB19 XKE')!.id),
  });
  return reference;
}

// --- Codes, as the driver reads them from the text ------------------------------------------------------------------

/** The newest sign-in code texted to Daniel Price (DATA_DIR/sms), and its file. */
function newestCode(p: PathPage): { file: string; code: string } | null {
  const dir = path.join(p.server.dataDir, 'sms');
  if (!existsSync(dir)) return null;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort().reverse()) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const code = /(\d{6}) is your .* driver code/.exec(text)?.[1];
    if (code && text.includes(`To: ${MOBILE_E164}`)) return { file, code };
  }
  return null;
}

/** Waits for a code texted after `since` (a file name) and keeps it for the path. */
async function codeTexted(p: PathPage, since: string | undefined) {
  await expect.poll(() => (newestCode(p)?.file ?? '') > (since ?? ''), { timeout: 30_000, message: 'a new sign-in code is texted' }).toBe(true);
  p.data.code = newestCode(p)!.code;
}

/** Signs the page's browser in as Daniel Price, as the page does: a code to his mobile, read from the text, sent back. */
async function withSession(p: PathPage) {
  const since = newestCode(p)?.file;
  await p.server.call('POST', '/driver/code', { mobile: MOBILE });
  await codeTexted(p, since);
  const res = await fetch(`${p.server.url}${DRIVER}/session`, { method: 'POST', headers: API_HEADERS, body: JSON.stringify({ mobile: MOBILE, code: p.data.code }) });
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  await p.page.context().addCookies([{ name, value, url: `${p.server.url}${DRIVER}/` }]);
}

// --- The answers of the path ----------------------------------------------------------------------------------------

/** Arranges the answers of the calls a person's act (or the opening) starts, as the model has them. */
async function arrange(p: PathPage, then: ModelEvent[], from: 'mobile' | 'resend' | null = null) {
  const job = `${DRIVER}/jobs/${ref(p)}`;
  const session = answerFrom(then, getSession);
  if (session?.error) await failAs(p, 'GET', `${DRIVER}/session`, session.error);
  // A code refused: a mobile typed that is no UK mobile is the server's own refusal; any other is asked of it.
  const code = answerFrom(then, requestCode);
  if (code?.error && !(from === 'mobile' && code.error.field === 'mobile')) await failAs(p, 'POST', `${DRIVER}/code`, code.error);
  const out = answerFrom(then, signOut);
  if (out?.error) await failAs(p, 'DELETE', `${DRIVER}/session`, out.error);
  // The list: the path's job, or none (the demo driver has other paths' jobs too).
  const list = answerFrom(then, loadJobs);
  if (list?.error) await failAs(p, 'GET', `${DRIVER}/jobs`, list.error);
  else if (list) await p.server.fault({ method: 'GET', path: `${DRIVER}/jobs`, kind: 'answer', body: { jobs: (list.output as DriverJob[]).map((j) => asPaths(p, j)) } });
  // The job: as dispatched is the server's own; at another step, cancelled, or refused, asked of it.
  const one = answerFrom(then, loadJob);
  if (one?.error) await failAs(p, 'GET', job, one.error);
  else if (one && (one.output as DriverJob).status !== 'assigned') await p.server.fault({ method: 'GET', path: job, kind: 'answer', body: { job: asPaths(p, one.output as DriverJob) } });
  const step = answerFrom(then, takeStep);
  if (step?.error) await failAs(p, 'POST', `${job}/status`, step.error);
  else if (step) await p.server.fault({ method: 'POST', path: `${job}/status`, kind: 'answer', body: { job: asPaths(p, step.output as DriverJob | null) } });
}

/** The found item's form (machines/driverFoundItem.ts; its own paths: ./driverFoundItem.paths.test.ts). */
const FOUND_FORM = { fields: ['What did you find? *', 'Where in the car?'], buttons: ['Send to the office', 'Cancel'] };

/** A load the path does not answer before the person acts again is held by the server, as the model leaves it waiting. */
async function holdUnanswered(p: PathPage, then: ModelEvent[], href: string) {
  const onJob = /^\/driver\/jobs\/[^/]+$/i.test(href);
  const [service, at] = onJob ? [loadJob, `${DRIVER}/jobs/${ref(p)}`] : [loadJobs, `${DRIVER}/jobs`];
  if (!answerFrom(then, service)) await p.server.fault({ method: 'GET', path: at, kind: 'delay', ms: 120_000 });
}

/** The model's address on this server: the path's job for the model's. */
const hrefFor = (p: PathPage, href: string) => href.replace(/bk-abcdefgh/i, (r) => (r === r.toLowerCase() ? ref(p).toLowerCase() : ref(p)));

async function go(p: PathPage, href: string, then: ModelEvent[]) {
  await arrange(p, then);
  await holdUnanswered(p, then, href);
  await p.back(hrefFor(p, href));
}

const steps = (p: PathPage) => p.page.getByRole('group', { name: 'Job steps' });

// --- The oracle -----------------------------------------------------------------------------------------------------

type DriverExpected = Expected & {
  /** The page to open once signed in (an address asked for while signed out, or where the session ended). */
  wanted?: string | null;
  /** Where the signed-in page is: the list (/driver) or the job. */
  href?: string;
  /** A code was texted: the code's screen. */
  codeSent?: boolean;
  /** The job as last shown. */
  job?: DriverJob | null;
  /** The step whose confirmation is open, or being saved. */
  step?: JobStep;
  /** What the page says once the screen being loaded is back (a step refused, a job declined). */
  after?: Partial<Seen>;
  failed?: boolean;
};

const JOB_PATH = /^\/driver\/jobs\/[^/]+$/i;
const LABELS = JOB_STEPS.map((s) => STEP_LABELS[s]);
/** The confirm window of a step that cannot be undone, by its title (src/web/views/driver/JobView.tsx). */
const CONFIRM_TITLES: Partial<Record<JobStep, string>> = { declined: 'Decline this job?', completed: 'Complete this job?', no_show: 'Mark as a no-show?' };

const signedOutAt = (wanted: string | null | undefined, more: Partial<Seen> = {}): DriverExpected => ({ screen: 'driverSignIn', wanted: wanted ?? null, ...more });
/** A signed-in page by its address: the list or a job, each loading. */
const pageAt = (href: string, more: Partial<DriverExpected> = {}): DriverExpected => (JOB_PATH.test(href)
  ? { screen: 'driverJob', awaits: 'loadJob', href, job: null, ...more }
  : { screen: 'driverJobs', awaits: 'loadJobs', href: '/driver', ...more });

/**
 * Issue 41 §2's job page, from the job the server sent: one button per step it allows now and none other; CANCELLED
 * plainly; at the pickup, when No-show may be tapped.
 */
function jobShown(job: DriverJob, href: string, more: Partial<Seen> = {}): DriverExpected {
  const offered = job.steps.map((s) => STEP_LABELS[s]);
  const texts = [
    ...job.cancelled ? ['Do not go to the pickup.'] : [],
    ...job.status === 'arrived' && job.no_show_from && Date.parse(job.no_show_from) > Date.now() ? ['No-show can be tapped from'] : [],
  ];
  // Issue 43 §3: a job whose passenger has been on board may take a found item.
  const found = job.can_report_found ? ['Report a found item'] : [];
  return {
    screen: 'driverJob', href, job, buttons: [...offered, ...found], noButtons: [...LABELS.filter((l) => !offered.includes(l)), ...found.length ? [] : ['Report a found item']],
    texts: [...texts, job.passenger_name], links: [/^Call 07700 900321$/], ...more,
  };
}

const SERVICES = { getSession, requestCode, signIn, signOut, loadJobs, loadJob, takeStep, foundItem };

const driverOracle: PathOracle<{ location: { path: string } }, DriverExpected> = {
  calls: {
    getSession: { method: 'GET', path: `${DRIVER}/session` },
    requestCode: { method: 'POST', path: `${DRIVER}/code` },
    signIn: { method: 'POST', path: `${DRIVER}/session` },
    signOut: { method: 'DELETE', path: `${DRIVER}/session` },
    loadJobs: { method: 'GET', path: `${DRIVER}/jobs` },
    loadJob: { method: 'GET', path: /^\/api\/v1\/driver\/jobs\/BK-[A-Z0-9]{8}$/ },
    takeStep: { method: 'POST', path: /^\/api\/v1\/driver\/jobs\/BK-[A-Z0-9]{8}\/status$/ },
  },
  services: SERVICES,
  opens: (_name, input) => ({ waiting: 'getSession', wanted: input.location.path }),
  after(before, e) {
    const service = serviceOf(e, SERVICES);
    const here = before.href ?? '/driver';
    if (service) {
      const awaited = isWaiting(before) ? before.waiting : before.awaits;
      if (awaited !== service) return undefined;
      const a = e as Answer;
      const refused = a.error;
      // An ended session signs the driver out, to come back here after the next sign-in.
      if (refused?.status === 401 && ['loadJobs', 'loadJob', 'takeStep'].includes(service)) return signedOutAt(here, { alerts: [SIGNED_OUT] });
      switch (service) {
        // The found item's form closed: sent (thanked, with the entry's number), given up, or the session ended.
        case 'foundItem': {
          const { kind } = a.output as { kind: string };
          if (kind === 'signedOut') return signedOutAt(here, { alerts: [SIGNED_OUT] });
          return jobShown(before.job!, here, kind === 'reported' ? { statuses: [DRIVER_NOTICES.found(FOUND)] } : {});
        }
        case 'getSession': return a.output ? pageAt(before.wanted ?? '/driver') : signedOutAt(before.wanted);
        case 'requestCode':
          // A code asked for again and refused leaves the code's screen; a mobile refused shows under its field.
          if (refused && before.codeSent) return { screen: 'driverCode', codeSent: true, wanted: before.wanted, alerts: [refused.message] };
          if (refused?.field === 'mobile') return signedOutAt(before.wanted, { fieldErrors: { 'Mobile number *': refused.message } });
          if (refused) return signedOutAt(before.wanted, { alerts: [refused.message] });
          return { screen: 'driverCode', codeSent: true, wanted: before.wanted, statuses: [CODE_SENT] };
        case 'signIn':
          if (refused) return { screen: 'driverCode', codeSent: true, wanted: before.wanted, fieldErrors: { 'Code *': refused.message } };
          return pageAt(before.wanted ?? '/driver');
        case 'signOut': return signedOutAt(null);
        case 'loadJobs': {
          if (refused) return { screen: 'driverJobs', href: '/driver', alerts: [refused.message], buttons: ['Try again'], failed: true };
          const jobs = a.output as DriverJob[];
          const more: Partial<Seen> = jobs.length ? { links: [/BK-[A-Z0-9]{8}/], texts: ['No jobs today.'] } : { texts: ['No jobs today.', 'No jobs coming up yet.'] };
          return { screen: 'driverJobs', href: '/driver', buttons: ['Refresh'], ...more, ...before.after };
        }
        case 'loadJob':
          if (refused?.status === 404) return { screen: 'driverNotFound', href: here };
          if (refused) return { screen: 'driverJob', href: here, alerts: [refused.message], buttons: ['Try again'], failed: true };
          return jobShown(a.output as DriverJob, here, { ...before.after });
        default: {
          // takeStep: the job as it is now, or (declined) the list; moved on meanwhile (409), the job again with why.
          if (refused?.status === 409) return pageAt(here, { after: { alerts: [refused.message] } });
          if (refused) return jobShown(before.job!, here, { alerts: [refused.message] });
          const job = a.output as DriverJob | null;
          const done = `Saved: ${STEP_LABELS[before.step!]}.`;
          if (!job) return pageAt('/driver', { after: { statuses: [/^You declined job BK-[A-Z0-9]{8}\. The office has been told/] } });
          return jobShown(job, here, { statuses: [done] });
        }
      }
    }
    if (isWaiting(before)) return undefined;
    const ev = e as unknown as { type: string; path: string; step: JobStep };
    const on = before.screen;
    const signedIn = on === 'driverJobs' || on === 'driverJob' || on === 'driverNotFound';
    const ready = signedIn && !before.awaits && !before.dialog;
    switch (ev.type) {
      case 'url.changed': {
        const href = ev.path === '/driver/jobs' ? '/driver' : ev.path;
        return signedIn ? pageAt(href) : signedOutAt(href);
      }
      case 'code.request': return on === 'driverSignIn' ? { waiting: 'requestCode', wanted: before.wanted } : undefined;
      case 'code.resend': return on === 'driverCode' ? { waiting: 'requestCode', wanted: before.wanted, codeSent: true } : undefined;
      case 'code.back': return on === 'driverCode' ? signedOutAt(before.wanted) : undefined;
      case 'code.submit': return on === 'driverCode' ? { waiting: 'signIn', wanted: before.wanted, codeSent: true } : undefined;
      case 'session.signOut': return signedIn ? { waiting: 'signOut' } : undefined;
      case 'jobs.refresh': return on === 'driverJobs' && ready ? pageAt('/driver') : undefined;
      case 'job.refresh': return on === 'driverJob' && ready && before.job ? pageAt(here) : undefined;
      case 'jobs.retry': return before.failed && on === 'driverJobs' ? pageAt(here) : undefined;
      case 'job.retry': return before.failed && on === 'driverJob' ? pageAt(here) : undefined;
      case 'job.open': return on === 'driverJobs' && ready ? pageAt(`/driver/jobs/${REF}`) : undefined;
      case 'step.start': {
        if (on !== 'driverJob' || !ready || !before.job?.steps.includes(ev.step)) return undefined;
        if (CONFIRMED_STEPS.includes(ev.step)) {
          return { ...jobShown(before.job, here), step: ev.step, noButtons: [], dialog: { title: CONFIRM_TITLES[ev.step]!, role: 'dialog' } };
        }
        return { waiting: 'takeStep', href: here, job: before.job, step: ev.step };
      }
      case 'step.confirm': return before.dialog && before.step ? { waiting: 'takeStep', href: here, job: before.job, step: before.step } : undefined;
      case 'step.cancel': return before.dialog && before.job ? jobShown(before.job, here) : undefined;
      case 'found.start': {
        if (on !== 'driverJob' || !ready || !before.job?.can_report_found) return undefined;
        return { ...jobShown(before.job, here), ...FOUND_FORM, noButtons: [...LABELS, 'Report a found item'], awaits: 'foundItem' };
      }
      default: return undefined;
    }
  },
};

browserPaths({
  model,
  width: 375,
  // What a driver can do: nothing while a call decides the screen; a button only where it is shown; not go to the
  // address the page is at. The server answers the step tapped: a decline with no job, another with the job.
  // What the live streams and the phone's position tell the page (issue 41): driven in Chromium by e2e/live-tracking.
  outsideThePage: ['share.status'],
  allows: (s: DriverSnapshot, e) => {
    if (e.type === takeStep.done().type) return ((e as unknown as { output: DriverJob | null }).output === null) === (s.context.step === 'declined');
    if (s.hasTag('busy')) return /^xstate\.(done|error)\./.test(e.type);
    const ev = e as AnyEventObject;
    switch (ev.type) {
      case 'url.changed': return ev.path.toUpperCase() !== s.context.location.path.toUpperCase();
      case 'job.open': return s.matches({ signedIn: { jobs: 'ready' } }) && (s.context.jobs?.length ?? 0) > 0;
      case 'jobs.refresh': return s.matches({ signedIn: { jobs: 'ready' } });
      case 'job.refresh': return s.matches({ signedIn: { job: 'ready' } });
      case 'jobs.retry': return s.matches({ signedIn: { jobs: 'failed' } });
      case 'job.retry': return s.matches({ signedIn: { job: 'failed' } });
      case 'step.start': return s.matches({ signedIn: { job: 'ready' } }) && Boolean(s.context.job?.steps.includes(ev.step));
      case 'found.start': return s.matches({ signedIn: { job: 'ready' } }) && Boolean(s.context.job?.can_report_found);
      case 'session.signOut': return s.matches('signedIn');
      default: return true;
    }
  },
  async open(p, _inputName, input, { then }) {
    p.data.reference = await dispatchedJob(p);
    if ((answerFrom(then, getSession)?.output ?? null) !== null) await withSession(p);
    await arrange(p, then);
    if ((answerFrom(then, getSession)?.output ?? null) !== null) await holdUnanswered(p, then, input.location.path);
    await p.typeUrl(hrefFor(p, input.location.path));
  },
  acts: {
    'url.changed /driver': (p, { then }) => go(p, '/driver', then),
    'url.changed /driver/jobs/bk-abcdefgh': (p, { then }) => go(p, '/driver/jobs/bk-abcdefgh', then),
    'code.request 07700 900101': async (p, { then }) => {
      await arrange(p, then, 'mobile');
      const answer = answerFrom(then, requestCode);
      const since = newestCode(p)?.file;
      await p.page.getByLabel('Mobile number').fill(answer?.error?.field === 'mobile' ? LANDLINE : MOBILE);
      await p.page.getByRole('button', { name: 'Text me a code' }).click();
      if (answer && !answer.error) await codeTexted(p, since);
    },
    'code.resend': async (p, { then }) => {
      await arrange(p, then, 'resend');
      const answer = answerFrom(then, requestCode);
      const since = newestCode(p)?.file;
      await p.page.getByRole('button', { name: 'Send a new code' }).click();
      if (answer && !answer.error) await codeTexted(p, since);
    },
    'code.back': async (p) => { await p.page.getByRole('button', { name: 'Use another number' }).click(); },
    'code.submit 123456': async (p, { then, trail }) => {
      await arrange(p, then);
      const answer = answerFrom(then, signIn);
      const code = p.data.code as string;
      // Signed in, the page opens where the driver was going (the machine keeps it): its load held unless answered.
      if (answer && !answer.error) await holdUnanswered(p, then, trail.at(-1)?.state.context.wanted?.path ?? '/driver');
      // A wrong code: the real one with its last digit changed.
      await p.page.getByLabel('Code').fill(answer?.error ? code.slice(0, 5) + String((Number(code[5]) + 1) % 10) : code);
      await p.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    },
    'session.signOut': async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByRole('button', { name: 'Sign out' }).click();
    },
    'jobs.refresh': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, '/driver');
      await p.page.getByRole('button', { name: 'Refresh' }).click();
    },
    'job.refresh': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, `/driver/jobs/${ref(p)}`);
      await p.page.getByRole('button', { name: 'Refresh' }).click();
    },
    ...Object.fromEntries(['jobs.retry', 'job.retry'].map((retry) => [retry, async (p: PathPage, { then }: { then: ModelEvent[] }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, p.url.pathname);
      await p.page.getByRole('button', { name: 'Try again' }).click();
    }])),
    'job.open BK-ABCDEFGH': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, `/driver/jobs/${ref(p)}`);
      await p.page.getByRole('link', { name: new RegExp(ref(p)) }).click();
    },
    ...Object.fromEntries((['accepted', 'declined', 'on_way'] as const).map((step) => [`step.start ${step}`, async (p: PathPage, { then }: { then: ModelEvent[] }) => {
      await arrange(p, then);
      // A 409 loads the job again: held when the path does not answer it.
      if (answerFrom(then, takeStep)?.error?.status === 409) await holdUnanswered(p, then, `/driver/jobs/${ref(p)}`);
      if (answerFrom(then, takeStep)?.output === null) await holdUnanswered(p, then, '/driver');
      await steps(p).getByRole('button', { name: STEP_LABELS[step], exact: true }).click();
    }])),
    'step.confirm': async (p, { then }) => {
      await arrange(p, then);
      if (answerFrom(then, takeStep)?.error?.status === 409) await holdUnanswered(p, then, `/driver/jobs/${ref(p)}`);
      if (answerFrom(then, takeStep)?.output === null) await holdUnanswered(p, then, '/driver');
      await p.page.getByRole('dialog').getByRole('button', { name: /^Yes, / }).click();
    },
    'step.cancel': async (p) => { await p.page.getByRole('dialog').getByRole('button', { name: 'Go back' }).click(); },
    'found.start': async (p) => { await p.page.getByRole('button', { name: 'Report a found item' }).click(); },
    // The form's own steps are its machine's paths (./driverFoundItem.paths.test.ts): here it is sent, or given up.
    // The path's job on the server was never on board: the report is answered as the model ends the form.
    ...Object.fromEntries(['reported', 'signedOut'].map((kind) => [`foundItem done (${kind})`, async (p: PathPage) => {
      const at = `${DRIVER}/jobs/${ref(p)}/found`;
      if (kind === 'reported') await p.server.fault({ method: 'POST', path: at, kind: 'answer', body: { entry: { id: 42, number: FOUND } } });
      else await failAs(p, 'POST', at, Object.assign(new Error(SIGNED_OUT), { status: 401 }));
      await p.page.getByLabel('What did you find?').fill('A black umbrella');
      await p.page.getByLabel('Where in the car?').fill('Back seat');
      await p.page.getByRole('button', { name: 'Send to the office' }).click();
    }])),
    'foundItem done (cancelled)': async (p) => { await p.page.getByRole('button', { name: 'Cancel', exact: true }).click(); },
  },
  oracle: driverOracle,
});
