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
import type { ModelEvent, Trail } from '../machine/modelPaths';
import { browserPaths, type PathPage } from './pathRunner';
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
    latest: async (p, { then, trail }) => {
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
  async sees(p, s: S, trail: Trail<S>) {
    const last = trail.at(-1)?.event as (ModelEvent & Answer) | undefined;
    const alert = (text: string) => p.page.getByRole('alert').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
    if (s.matches('signedOut')) {
      await p.at('/operator/login', '');
      await p.heading('Staff sign-in');
      if (last && isAnswer(last, signIn) && last.error) await alert(MESSAGES.signInFailed);
      if (last?.error?.status === 401 && !isAnswer(last, signIn)) await alert(MESSAGES.sessionEnded);
      return;
    }
    // Signed in: the console's bar names who is signed in.
    await p.page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 10_000 });
    if (s.matches({ signedIn: 'board' })) {
      await p.at('/operator');
      await p.heading('Bookings');
      const tab = new URLSearchParams(p.url.search).get('tab') ?? 'today';
      await expect.poll(() => p.page.getByRole('button', { name: { today: 'Today', upcoming: 'Upcoming', past: 'Past', awaiting: 'Awaiting payment', cancelled: 'Cancelled' }[tab], exact: true }).getAttribute('aria-pressed')).toBe('true');
      if (s.matches({ signedIn: { board: 'failed' } })) await alert(last!.error!.message);
      // Bookings that arrived since the board was shown are counted in the bar.
      if (s.matches({ signedIn: { board: 'ready' } }) && unseenCount(s) > 0) {
        await p.page.getByRole('link', { name: /^Bookings \(\d+ new\)$/ }).waitFor({ timeout: 10_000 });
        await p.page.getByRole('button', { name: /^Show \d+ new booking/ }).waitFor({ timeout: 10_000 });
      }
      return;
    }
    if (s.matches({ signedIn: 'booking' })) {
      if (s.matches({ signedIn: { booking: 'notFound' } })) {
        await p.heading(/^No booking BK-/);
        return;
      }
      await p.at(`/operator/bookings/${p.data.reference}`, '');
      await p.heading(`Booking ${p.data.reference}`);
      if (s.matches({ signedIn: { booking: 'failed' } })) await alert(last!.error!.message);
      if (s.matches({ signedIn: { booking: 'confirming' } })) {
        await dialog(p).waitFor({ timeout: 10_000 });
        if (last?.error?.field === 'mobile') await dialog(p).getByText(last.error.message).waitFor({ timeout: 10_000 });
      } else {
        await expect.poll(() => dialog(p).count(), { timeout: 10_000 }).toBe(0);
      }
      // Someone else changed the booking meanwhile: it is shown again, with the message.
      if (s.matches({ signedIn: { booking: 'ready' } }) && (trail.at(-2)?.event as Answer | undefined)?.error?.status === 409) await alert(MESSAGES.notAllowed);
      return;
    }
    if (s.matches({ signedIn: 'mail' })) {
      await p.at('/operator/mail');
      await p.heading('Mail');
      if (s.matches({ signedIn: { mail: 'failed' } })) await alert(last!.error!.message);
      if (s.matches({ signedIn: { mail: 'ready' } }) && isAnswer(last, loadMail) && (last!.output as unknown[]).length) {
        await p.page.getByRole('cell', { name: failedMail.last_error }).waitFor({ timeout: 10_000 });
      }
      return;
    }
    if (s.matches({ signedIn: 'export' })) {
      await p.at('/operator/export', '');
      await p.heading('Export for the accounts');
      if (isAnswer(last, exportCsv) && !last!.error) await p.sees('The file has been downloaded.');
      if (isAnswer(last, exportCsv) && last!.error) await alert(last!.error.message);
      return;
    }
    if (s.matches({ signedIn: 'data' })) {
      await p.at('/operator/data');
      await p.heading('Operator data');
      if (s.matches({ signedIn: { data: 'failed' } })) await alert(last!.error!.message);
      if (isAnswer(trail.at(-2)?.event, saveData) && !(trail.at(-2)!.event as Answer).error) await p.sees(/One-time password/);
      if (isAnswer(last, saveData) && last!.error?.field === 'email') await p.sees(last!.error.message);
    }
  },
});
