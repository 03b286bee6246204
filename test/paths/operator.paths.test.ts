// The console's generated paths in Chromium (./pathRunner.ts), issue 26: staff sign-in, the board, a booking and
// its actions, the mail queue, the export and operator data, on the real page against the real server, signed in as
// the demo staff. The server's answers are real where the demo gives them (a wrong password, a booking, the staff
// list); the rest are asked of it (a dropped call, an ended session, a refusal naming a field, a mail that failed).
// The board's watch for new bookings is held by the server for the whole path and let go only where the path says
// a new booking arrives (one made through the API just before).
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { unseenCount, type OperatorSnapshot } from '../../machines/operator';
import { MESSAGES } from '../../src/domain/operatorDesk';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import {
  board, exportCsv, getSession, loadBoard, loadBooking, loadData, loadFilters, loadMail, model, retryMail, runAction, saveData, signIn, signOut,
  failedMail,
} from '../machine/models/operator';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, serviceOf, type Expected, type Seen } from './screens';
import { firstPriced, pricesFor, trip, uniqueEmail } from './data';
import type { BookingResponse } from '../../src/domain/schemas';

type S = OperatorSnapshot;
type Answer = { type: string; output?: unknown; error?: Error & { status?: number; field?: string } };
const API = '/api/v1/operator';
const [ADMIN, METRO] = DEMO_STAFF;

const isAnswer = (e: ModelEvent | undefined, service: { done: (o?: unknown) => { type: string } }) =>
  !!e && (e.type === service.done().type || e.type === service.done().type.replace('done', 'error'));
/** The answer of `service` among the answers that follow a person's act, if any. */
const answerFrom = (then: ModelEvent[], service: { done: (o?: unknown) => { type: string } }) =>
  then.find((e) => isAnswer(e, service)) as Answer | undefined;

/** Asks the server to give a service's failure as the model has it: its status and field, or a dropped call. */
async function failAs(p: PathPage, method: string, path: string, error: Answer['error']) {
  if (error?.status) await p.server.fault({ method, path, kind: 'status', status: error.status, message: error.message, field: error.field });
  else await p.server.fault({ method, path, kind: 'drop' });
}

/** Arranges the answers of the calls a person's act (or the opening) starts, for the services the model names. */
async function arrange(p: PathPage, then: ModelEvent[]) {
  const ref = p.data.reference as string;
  const calls: [{ done: (o?: unknown) => { type: string } }, string, string][] = [
    [getSession, 'GET', `${API}/session`], [loadFilters, 'GET', `${API}/filters`], [loadBoard, 'GET', `${API}/bookings`],
    [loadBooking, 'GET', `${API}/bookings/${ref}`], [loadMail, 'GET', `${API}/emails`], [retryMail, 'POST', `${API}/emails/${failedMail.id}/retry`],
    [exportCsv, 'GET', `${API}/export`], [signOut, 'DELETE', `${API}/session`], [saveData, 'POST', `${API}/data`],
    [runAction, 'POST', `${API}/bookings/${ref}/driver`],
  ];
  const data = answerFrom(then, loadData);
  if (data?.error) for (const section of ['settings', 'fleet', 'staff']) await failAs(p, 'GET', `${API}/data/${section}`, data.error);
  for (const [service, method, path] of calls) {
    const answer = answerFrom(then, service);
    if (!answer) continue;
    // A 404 of the booking is the server's own answer: the path asks for a reference no booking has.
    if (service === loadBooking && answer.error?.status === 404) continue;
    if (answer.error) await failAs(p, method, path, answer.error);
    // The board the model has: one booking, the path's own (the demo has none today), and no newer one known yet.
    else if (service === loadBoard) {
      await p.server.fault({ method, path, kind: 'answer', body: { ...board, rows: [{ ...board.rows[0], booking_number: ref }], latest: { latest_id: 0, count: 0 } } });
    } else if (service === loadMail && Array.isArray(answer.output) && answer.output.length) {
      await p.server.fault({ method, path, kind: 'answer', body: { emails: answer.output } });
    } else if (service === runAction && (answer.output as { refund?: unknown }).refund) {
      await p.server.fault({ method, path, kind: 'answer', body: { status: 'cancelled', refund: (answer.output as { refund: unknown }).refund } });
    } else if (service === retryMail) {
      await p.server.fault({ method, path, kind: 'answer', body: { retried: failedMail.id } });
    }
  }
}

/** The screen's load an act (or the opening) starts, by the address it goes to. */
function loadOf(href: string): [{ done: (o?: unknown) => { type: string } }, string] | null {
  const path = href.split('?')[0];
  if (path === '/operator') return [loadBoard, `${API}/bookings`];
  if (path.startsWith('/operator/bookings/')) return [loadBooking, `${API}/bookings/${path.split('/').at(-1)}`];
  if (path === '/operator/mail') return [loadMail, `${API}/emails`];
  if (path === '/operator/data') return [loadData, `${API}/data/${new URLSearchParams(href.split('?')[1] ?? '').get('section') ?? 'settings'}`];
  return null;
}

/**
 * A load the path does not answer before the person acts again is held by the server until the path ends, as the
 * model leaves it waiting: the page must not move on by itself.
 */
async function holdUnanswered(p: PathPage, then: ModelEvent[], load: ReturnType<typeof loadOf>) {
  if (load && !answerFrom(then, load[0])) await p.server.fault({ method: 'GET', path: load[1], kind: 'delay', ms: 120_000 });
}

/** A booking paid in the car, made as the website makes one, for the path's booking page. */
async function newBooking(p: PathPage): Promise<string> {
  const form = trip();
  const made = await p.server.call<BookingResponse>('POST', '/booking', {
    selectedVehicleData: firstPriced(await pricesFor(p.server, form)), bookingType: 'milleage', bookingForm: form, payment_method: 'car',
    selected_passenger: 'guest_login',
    registrationData: { firstName: 'Oliver', surname: 'Bennett', number: '07700 900123', email: uniqueEmail('desk'), additionalInfo: '' },
  });
  return made.data!.booking.booking_number;
}

/** Signs the page's browser in as a member of staff: the cookie the sign-in gives. */
async function withSession(p: PathPage, who: { email: string; password: string }) {
  const res = await fetch(`${p.server.url}${API}/session`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' },
    body: JSON.stringify(who),
  });
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  await p.page.context().addCookies([{ name, value, url: `${p.server.url}/api/v1/operator/` }]);
}

/** Where the model's booking reference is, on this server: the path's own booking, or none for a 404. */
const hrefFor = (p: PathPage, href: string, then: ModelEvent[]) => {
  const missing = answerFrom(then, loadBooking)?.error?.status === 404;
  return href.replace('BK-ABCDEFGH', missing ? 'BK-NOSUCH22' : p.data.reference);
};

async function go(p: PathPage, href: string, then: ModelEvent[]) {
  const to = hrefFor(p, href, then);
  await arrange(p, then);
  await holdUnanswered(p, then, loadOf(to));
  await p.back(to);
}

const dialog = (p: PathPage) => p.page.getByRole('dialog');

type OperatorExpected = Expected & {
  /** The page to go on to once signed in (an address asked for while signed out, or where the session ended). */
  wanted?: string | null;
  /** Where the signed-in console is (its address and query). */
  href?: string;
  /** A booking arrived since the board was shown. */
  unseen?: boolean;
  /** What the console says once the screen being loaded is back (an action done, a refusal). */
  after?: Partial<Seen>;
  /** The screen's load was refused: Try again loads it again. */
  failed?: boolean;
};
const OP = '/api/v1/operator';
const OP_BOOKING = /^\/api\/v1\/operator\/bookings\/BK-[A-Z0-9]{8}$/;

/**
 * Issue 26's console (decision 41), by what the member of staff did and what the server answered: the session, the
 * board, a booking and its actions, the mail queue, the export and operator data, written apart from
 * machines/operator.ts. A screen's load shows the screen as loading, where the person may act meanwhile.
 */
function consoleAt(href: string, more: Partial<OperatorExpected> = {}): OperatorExpected {
  const path = href.split('?')[0];
  const base = { href, wanted: null, ...more };
  if (path.startsWith('/operator/bookings/')) return { screen: 'opBooking', awaits: 'loadBooking', ...base };
  if (path === '/operator/mail') return { screen: 'opMail', awaits: 'loadMail', ...base };
  if (path === '/operator/export') return { screen: 'opExport', ...base };
  if (path === '/operator/data') return { screen: 'opData', awaits: 'loadData', ...base };
  return { screen: 'opBoard', awaits: 'loadBoard', ...base };
}
const signedOut = (wanted: string | null | undefined, alert?: string): OperatorExpected => (
  { screen: 'opLogin', search: '', wanted: wanted ?? null, alerts: alert ? [alert] : [] });
/** The screen loaded: what it shows once its answer came, with what the console had to say. */
const loaded = (before: OperatorExpected, more: Partial<Seen> = {}): OperatorExpected => ({
  screen: (before as Seen).screen, href: before.href, unseen: before.unseen, ...before.after, ...more,
});

const operatorOracle: PathOracle<unknown, OperatorExpected> = {
  calls: {
    getSession: { method: 'GET', path: `${OP}/session` },
    signIn: { method: 'POST', path: `${OP}/session` },
    signOut: { method: 'DELETE', path: `${OP}/session` },
    loadBoard: { method: 'GET', path: `${OP}/bookings` },
    loadBooking: { method: 'GET', path: OP_BOOKING },
    runAction: { method: 'POST', path: /^\/api\/v1\/operator\/bookings\/BK-[A-Z0-9]{8}\/driver$/ },
    loadMail: { method: 'GET', path: `${OP}/emails` },
    retryMail: { method: 'POST', path: /^\/api\/v1\/operator\/emails\/\d+\/retry$/ },
    exportCsv: { method: 'GET', path: `${OP}/export` },
    loadData: { method: 'GET', path: /^\/api\/v1\/operator\/data\/(settings|fleet|staff)$/ },
    saveData: { method: 'POST', path: `${OP}/data` },
  },
  background: ['loadFilters'],
  services: { getSession, signIn, signOut, loadBoard, loadFilters, loadBooking, runAction, loadMail, retryMail, exportCsv, loadData, saveData },
  opens: (_name, input) => {
    const { path, search } = (input as { location: { path: string; search: string } }).location;
    return { waiting: 'getSession', wanted: path === '/operator/login' ? null : path + search };
  },
  after(before, e) {
    const service = serviceOf(e, { getSession, signIn, signOut, loadBoard, loadFilters, loadBooking, runAction, loadMail, retryMail, exportCsv, loadData, saveData });
    const here = before.href ?? '/operator';
    if (service === 'loadFilters') return before;
    if (service) {
      const awaited = isWaiting(before) ? before.waiting : before.awaits;
      if (awaited !== service) return undefined;
      const a = e as Answer;
      const refused = a.error;
      // SPEC 8-like refusals: an ended session signs the member of staff out, to come back here.
      // An action being saved (a booking's action, a mail's retry, a change of data) was not: the sign-in page says so.
      if (refused?.status === 401 && service !== 'signIn') {
        return signedOut(here, ['runAction', 'retryMail', 'saveData'].includes(service) ? MESSAGES.sessionEndedUnsaved : MESSAGES.sessionEnded);
      }
      switch (service) {
        case 'getSession': return a.output ? consoleAt(before.wanted ?? '/operator') : signedOut(before.wanted);
        case 'signIn': return refused ? signedOut(before.wanted, MESSAGES.signInFailed) : consoleAt(before.wanted ?? '/operator');
        case 'signOut': return signedOut(null);
        case 'runAction':
          // A refusal of the driver form stays in it, under its field; another booking's change reloads it.
          if (refused?.status === 422) return { screen: 'opBooking', href: here, dialog: { title: 'driver', role: 'dialog' }, texts: [refused.message] };
          if (refused?.status === 409) return consoleAt(here, { after: { alerts: [MESSAGES.notAllowed] } });
          return consoleAt(here, { after: { statuses: ['Driver saved. The passenger has been e-mailed the details.'] } });
        case 'retryMail':
          return consoleAt(here, { after: refused ? { alerts: [refused.message] } : { statuses: ['The message will be sent again now.'] } });
        case 'exportCsv':
          return { screen: 'opExport', href: here, ...(refused ? { alerts: [refused.message] } : { texts: ['The file has been downloaded.'] }) };
        case 'saveData':
          if (refused) return { screen: 'opData', href: here, texts: [refused.message] };
          return consoleAt(here);
        default:
          // A screen's load: a booking the office does not have, a refusal to try again, or the screen itself.
          if (service === 'loadBooking' && refused?.status === 404) return { screen: 'opNotFound', href: here };
          if (refused) return { ...loaded(before), alerts: [refused.message], buttons: ['Try again'], failed: true };
          if (service === 'loadBoard' && before.unseen) {
            return loaded(before, { links: [/^Bookings \(\d+ new\)$/], buttons: [/^Show \d+ new booking/] });
          }
          if (service === 'loadBooking') return loaded(before, { buttons: [/^(Assign|Change) driver$/] });
          if (service === 'loadMail' && Array.isArray(a.output) && a.output.length) return loaded(before, { texts: [failedMail.last_error] });
          return loaded(before);
      }
    }
    if (isWaiting(before)) return undefined;
    const ev = e as unknown as { type: string; path: string; search: string; action?: string };
    const on = before.screen;
    const signedIn = on !== 'opLogin';
    const ready = signedIn && !before.awaits;
    switch (ev.type) {
      case 'url.changed': {
        const href = ev.path + ev.search;
        if (!signedIn) return signedOut(ev.path === '/operator/login' ? before.wanted : href);
        return consoleAt(href, { unseen: before.unseen });
      }
      case 'signIn': return signedIn ? undefined : { waiting: 'signIn', wanted: before.wanted };
      case 'signOut': return signedIn ? { waiting: 'signOut' } : undefined;
      case 'board.query': return on === 'opBoard' ? consoleAt('/operator?tab=past', { unseen: before.unseen }) : undefined;
      case 'board.showNew': return on === 'opBoard' && ready && before.unseen ? consoleAt(here) : undefined;
      // A booking arrived: the board shows it (loading again); elsewhere the bar counts it.
      // (The same screen, still loading what it asked for: marked, not copied, so its call is not looked for twice.)
      case 'latest': return on === 'opBoard' && ready ? consoleAt(here, { unseen: true }) : signedIn ? Object.assign(before, { unseen: true }) : undefined;
      case 'open': return on === 'opBoard' && ready ? consoleAt('/operator/bookings/BK-ABCDEFGH') : undefined;
      case 'action.start': return on === 'opBooking' && ready && !before.dialog
        ? { screen: 'opBooking', href: here, dialog: { title: 'driver', role: 'dialog' } } : undefined;
      case 'action.cancel': return before.dialog ? { screen: 'opBooking', href: here } : undefined;
      case 'action.confirm': return before.dialog ? { waiting: 'runAction', href: here } : undefined;
      case 'retry': return (before as { failed?: boolean }).failed ? consoleAt(here) : undefined;
      case 'mail.show': return on === 'opMail' ? consoleAt('/operator/mail?status=sent') : undefined;
      case 'mail.retry': return on === 'opMail' && ready ? { waiting: 'retryMail', href: here } : undefined;
      case 'export.download': return on === 'opExport' ? { waiting: 'exportCsv', href: here } : undefined;
      case 'data.show': return on === 'opData' ? consoleAt('/operator/data?section=fleet') : undefined;
      case 'data.save': return on === 'opData' && ready ? { waiting: 'saveData', href: here } : undefined;
      default: return undefined;
    }
  },
};

browserPaths({
  model,
  width: 1280,
  // What a person can do on the page: nothing while a call decides the next screen; a tab or button only where it
  // is shown; not go to the address the page is at.
  allows: (s, e) => {
    if (s.hasTag('busy')) return /^xstate\.(done|error)\./.test(e.type);
    const ev = e as AnyEventObject;
    const here = `${s.context.location.path}${s.context.location.search}`;
    switch (ev.type) {
      case 'url.changed': return `${ev.path}${ev.search}` !== here;
      case 'open': return s.matches({ signedIn: { board: 'ready' } }) && (s.context.board?.rows.length ?? 0) > 0;
      case 'board.query': return s.matches({ signedIn: 'board' }) && s.context.query.tab !== ev.query.tab;
      case 'board.showNew': return s.matches({ signedIn: { board: 'ready' } }) && unseenCount(s) > 0;
      // A booking arriving is made through the API, which a company desk may not see: the administrator's paths.
      case 'latest': return s.matches('signedIn') && !s.matches({ signedIn: { board: 'loading' } }) && s.context.staff?.role === 'admin';
      case 'mail.show': return s.matches({ signedIn: 'mail' }) && s.context.mailStatus !== ev.status;
      case 'mail.retry': return s.matches({ signedIn: { mail: 'ready' } }) && (s.context.mail?.length ?? 0) > 0;
      case 'data.show': return s.matches({ signedIn: 'data' }) && s.context.dataSection !== ev.section;
      case 'data.save': return s.matches({ signedIn: { data: 'ready' } }) && s.context.dataSection === 'staff';
      case 'action.start': return s.matches({ signedIn: { booking: 'ready' } }) && Boolean(s.context.page?.desk.actions.includes(ev.action));
      case 'export.download': return s.matches({ signedIn: { export: 'idle' } });
      case 'signIn': return s.matches({ signedOut: 'idle' });
      case 'signOut': return s.matches('signedIn');
      case 'retry': return ['board', 'booking', 'mail', 'data'].some((x) => s.matches({ signedIn: { [x]: 'failed' } }));
      default: return true;
    }
  },
  async open(p, _inputName, input, { then }) {
    p.data.reference = await newBooking(p);
    // The watch for new bookings waits, held by the server, until a path's step says a booking arrived.
    await p.server.fault({ method: 'GET', path: `${API}/latest`, kind: 'delay', ms: 120_000, times: 1000 });
    const session = answerFrom(then, getSession);
    if (session?.output) await withSession(p, (session.output as { role: string }).role === 'admin' ? ADMIN : METRO);
    await arrange(p, then);
    const to = hrefFor(p, `${input.location.path}${input.location.search}`, then);
    if (session?.output) await holdUnanswered(p, then, loadOf(to));
    await p.typeUrl(to);
  },
  acts: {
    ...Object.fromEntries(['/operator', '/operator?tab=upcoming&q=smith', '/operator/bookings/BK-ABCDEFGH', '/operator/mail', '/operator/export',
      '/operator/login', '/operator/data?section=staff']
      .map((href) => [`url.changed ${href}`, (p: PathPage, { then }: { then: ModelEvent[] }) => go(p, href, then)])),
    'signIn ops@albion-executive.co.uk Albion-Desk-2026': async (p, { then }) => {
      await arrange(p, then);
      const answer = answerFrom(then, signIn);
      await p.page.getByLabel('E-mail').fill(ADMIN.email);
      await p.page.getByLabel('Password').fill(answer?.error ? 'not-the-password' : ADMIN.password);
      await p.page.getByRole('button', { name: 'Sign in' }).click();
    },
    signOut: async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByRole('button', { name: 'Sign out' }).click();
    },
    'board.query': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadOf('/operator'));
      await p.page.getByRole('button', { name: 'Past', exact: true }).click();
    },
    'board.showNew': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadOf('/operator'));
      await p.page.getByRole('button', { name: /^Show \d+ new/ }).click();
    },
    // A booking arrives (made through the API, as the website makes one), and the held watch is let go.
    'latest latest_id 9 count 7': async (p, { then, trail }) => {
      await arrange(p, then);
      const onBoard = (trail.at(-1)?.state ?? null) === null ? false : (trail.at(-1)!.state as S).matches({ signedIn: { board: 'ready' } });
      if (onBoard) await holdUnanswered(p, then, loadOf('/operator'));
      await newBooking(p);
      // The page's watch asks every 5 seconds; its call, held, is let go once it has come.
      const watch = { method: 'GET', path: `${API}/latest` };
      await expect.poll(() => p.server.heldNow(watch), { timeout: 15_000 }).toBe(1);
      await p.server.release(watch);
      await p.server.fault({ method: 'GET', path: `${API}/latest`, kind: 'delay', ms: 120_000, times: 1000 });
    },
    'open BK-ABCDEFGH': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadOf(`/operator/bookings/${p.data.reference}`));
      await p.page.getByRole('table').getByRole('link', { name: p.data.reference }).click();
    },
    'action.start assignDriver': async (p) => {
      await p.page.getByRole('button', { name: /^(Assign|Change) driver$/ }).click();
    },
    'action.confirm': async (p, { then }) => {
      await arrange(p, then);
      const form = dialog(p);
      await form.getByLabel("Driver's name").fill('Dan Price');
      await form.getByLabel('Mobile').fill('07700 900777');
      await form.getByLabel('Vehicle (make and model)').fill('Mercedes E-Class');
      await form.getByLabel('Registration').fill('LB71 XKE');
      await form.getByRole('button', { name: 'Save driver' }).click();
    },
    'action.cancel': async (p) => { await dialog(p).getByRole('button', { name: 'Go back' }).click(); },
    'mail.show sent': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadOf('/operator/mail'));
      await p.page.getByRole('button', { name: 'Sent', exact: true }).click();
    },
    'mail.retry 3': async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByRole('button', { name: `Retry: ${failedMail.subject} to ${failedMail.to_address}` }).click();
    },
    'export.download 2030-09-01 2030-09-30': async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByLabel('First day').fill('2030-09-01');
      await p.page.getByLabel('Last day').fill('2030-09-30');
      await p.page.getByRole('button', { name: 'Download CSV' }).click();
    },
    'data.show fleet': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadOf('/operator/data?section=fleet'));
      await p.page.getByRole('button', { name: 'Fleet and rates', exact: true }).click();
    },
    'data.save': async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByLabel('Name').fill('Sam Lee');
      await p.page.getByLabel('E-mail').fill('sam.lee@albion-executive.co.uk');
      await p.page.getByLabel('Role').selectOption({ label: 'Dispatcher' });
      await p.page.getByRole('button', { name: 'Add staff' }).click();
    },
    retry: async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadOf(`${p.url.pathname}${p.url.search}`));
      await p.page.getByRole('button', { name: 'Try again' }).click();
    },
  },
  oracle: operatorOracle,
});
