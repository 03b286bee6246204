// The manage page's generated paths in Chromium (./pathRunner.ts), issue 27: a passenger's booking opened from its
// link, changed, paid for, cancelled, its receipt downloaded, and Find my booking, on the real page against the real
// server. Each path has a booking of its own: paid by card, with meet and greet, two weeks ahead. The server's
// answers are real where the booking gives them (the page, a change saved, a new price to confirm, the difference
// paid through the local test gateway, the cancellation, the receipt); the rest are asked of it (a dropped call, a
// refusal naming a field, a page too near its pickup to change).
import type { AnyEventObject } from 'xstate';
import { MANAGE_NOTICES, type ChangeAnswer, type ManagePage } from '../../machines/manage';
import type { BookingResponse } from '../../src/domain/schemas';
import { MANAGE_MESSAGES } from '../../src/domain/manageRules';
import {
  cancelBooking, card, closed, downloadReceipt, findBooking, loadBooking, model, readKey, saveChange, waiting,
} from '../machine/models/manage';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, serviceOf, type Expected, type Seen } from './screens';
import { pricesFor, trip, uniqueEmail } from './data';
import { CARDS, payWith } from './cardSteps';
import { entriesOf } from './storage';
import { signIn } from './data';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';

type Answer = { type: string; output?: unknown; error?: Error & { status?: number; field?: string } };
type Service = { done: (o?: unknown) => { type: string } };
const API = '/api/v1';
const PK = 'local-public-key';

const isAnswer = (e: ModelEvent | undefined, service: Service) =>
  !!e && (e.type === service.done().type || e.type === service.done().type.replace('done', 'error'));
const answerFrom = (then: ModelEvent[], service: Service) => then.find((e) => isAnswer(e, service)) as Answer | undefined;
const same = (a: Answer | undefined, output: unknown) => JSON.stringify(a?.output) === JSON.stringify(output);

async function failAs(p: PathPage, method: string, path: string, error: Answer['error']) {
  if (error?.status) await p.server.fault({ method, path, kind: 'status', status: error.status, message: error.message, field: error.field });
  else await p.server.fault({ method, path, kind: 'drop' });
}

/** A booking paid by card through the local test gateway, as the card page makes one: its reference and link key. */
async function cardBooking(p: PathPage): Promise<{ reference: string; key: string }> {
  const form = { ...trip(), meet_and_greet: 'yes' as const };
  const vehicle = (await pricesFor(p.server, form)).find((x) => Number(x.price) > 0)!;
  const pm = await (await fetch(`${p.server.url}/test-gateway/v1/payment_methods`, {
    method: 'POST', headers: { Authorization: `Bearer ${await publishableKey(p)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': CARDS.approved, 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json() as { id: string };
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email: uniqueEmail('manage'), additionalInfo: '' },
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  const idem = { 'Idempotency-Key': `manage-path-${Math.random().toString(36).slice(2)}` };
  const intent = await p.server.call<{ paymentIntentId: string }>('POST', '/create-payment-intent',
    { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, idem);
  const paid = await p.server.call<{ sessionId: string; paymentId: string }>('POST', '/confirm-payment-intent', { paymentIntentId: intent.paymentIntentId });
  const made = await p.server.call<BookingResponse>('POST', '/booking', { ...request, stripe_session_id: paid.sessionId, paymentId: paid.paymentId }, idem);
  return { reference: made.data!.booking.booking_number, key: made.data!.manage_key! };
}

async function publishableKey(p: PathPage): Promise<string> {
  return (await p.server.call<{ publishableKey: string }>('GET', '/secret_key')).publishableKey ?? PK;
}

const ref = (p: PathPage) => p.data.reference as string;
const key = (p: PathPage) => p.data.key as string;
const headers = (p: PathPage) => ({ 'X-Manage-Key': key(p) });

/** A change whose higher price waits for its difference, made through the API as the page makes one. */
async function waitingChange(p: PathPage): Promise<{ change_id: number; amount_pence: number; new_total: string }> {
  const page = await p.server.call<{ manage: { form: Record<string, string>; waiting_change: { id: number; amount_pence: number; new_total: string } | null } }>(
    'GET', `/manage/${ref(p)}`, undefined, headers(p));
  if (page.manage.waiting_change) {
    const w = page.manage.waiting_change;
    return { change_id: w.id, amount_pence: w.amount_pence, new_total: w.new_total };
  }
  await p.server.setting('MEET_AND_GREET', '35');
  const values = { ...page.manage.form, pickup_min: page.manage.form.pickup_min === '45' ? '50' : '45' };
  const asked = await p.server.call<{ new_total: string }>('POST', `/manage/${ref(p)}/changes`, values, headers(p));
  return p.server.call('POST', `/manage/${ref(p)}/changes`, { ...values, accept_total: asked.new_total }, headers(p));
}

/** Arranges the answers of the calls a person's act (or the opening) starts, as the model has them. */
async function arrange(p: PathPage, then: ModelEvent[]) {
  const at = `${API}/manage/${ref(p)}`;
  // The booking page: the real one, with a change waiting when the model says so, or as if too near the pickup.
  const load = answerFrom(then, loadBooking);
  if (load?.error) await failAs(p, 'GET', at, load.error);
  else if (same(load, waiting)) p.data.waiting = await waitingChange(p);
  else if (same(load, closed)) {
    const real = await p.server.call<{ booking: unknown; manage: Record<string, unknown> }>('GET', `/manage/${ref(p)}`, undefined, headers(p));
    await p.server.fault({ method: 'GET', path: at, kind: 'answer', body: { ...real, manage: { ...real.manage, may: closed.manage.may, waiting_change: closed.manage.waiting_change } } });
  }
  // A change: saved, or a new price to confirm, are the server's own (the price raised first); a payment asked for
  // is a real change waiting; a refusal is asked of the server.
  const change = answerFrom(then, saveChange);
  const status = (change?.output as { status?: string } | undefined)?.status;
  if (change?.error) await failAs(p, 'POST', `${at}/changes`, change.error);
  else if (status === 'confirm_price') await p.server.setting('MEET_AND_GREET', '35');
  else if (status === 'payment_required') {
    p.data.waiting = await waitingChange(p);
    await p.server.fault({ method: 'POST', path: `${at}/changes`, kind: 'answer', body: { status: 'payment_required', ...p.data.waiting } });
  }
  const cancel = answerFrom(then, cancelBooking);
  if (cancel?.error) await failAs(p, 'POST', `${at}/cancel`, cancel.error);
  const receipt = answerFrom(then, downloadReceipt);
  if (receipt?.error) await failAs(p, 'GET', `${at}/receipt`, receipt.error);
  const find = answerFrom(then, findBooking);
  if (find?.error) await failAs(p, 'POST', `${API}/manage/find`, find.error);
  else if (find) await p.server.fault({ method: 'POST', path: `${API}/manage/find`, kind: 'answer', body: { success: true, message: MANAGE_MESSAGES.findSent } });
}

/** A call the path does not answer before the person acts again is held by the server, as the model leaves it waiting. */
async function holdUnanswered(p: PathPage, then: ModelEvent[], service: Service, method: string, path: string) {
  if (!answerFrom(then, service)) await p.server.fault({ method, path, kind: 'delay', ms: 120_000 });
}

/** The key the page finds for the booking, as the model's next answer has it: kept from the link, none, or a failure. */
async function arrangeKey(p: PathPage, then: ModelEvent[]) {
  const found = answerFrom(then, readKey);
  if (!found) return;
  const keep = found.output === null || found.error ? null : key(p);
  await p.page.evaluate(([reference, k]) => {
    if (k) sessionStorage.setItem(`manage-key:${reference}`, k);
    else sessionStorage.removeItem(`manage-key:${reference}`);
  }, [ref(p), keep] as const);
  // No key kept, and a signed-in corporate passenger whose key call fails (not their booking): no key either.
  if (found.error) {
    const { local } = await entriesOf({ session: await signIn(p.server, DEMO_CORPORATE.email, DEMO_CORPORATE.password) });
    await p.page.evaluate((entries) => { for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v); }, local);
  }
}

const hrefOf = (p: PathPage, href: string) => href.replace(/bk-abcdefgh/i, (m) => (m === m.toLowerCase() ? ref(p).toLowerCase() : ref(p)));

async function go(p: PathPage, href: string, then: ModelEvent[]) {
  await arrangeKey(p, then);
  await arrange(p, then);
  if (href !== '/manage' && answerFrom(then, readKey)?.output) await holdUnanswered(p, then, loadBooking, 'GET', `${API}/manage/${ref(p)}`);
  await p.back(hrefOf(p, href));
}

const dialog = (p: PathPage, name: string) => p.page.getByRole('dialog', { name });
const button = (p: PathPage, name: string | RegExp) => p.page.getByRole('button', { name });

type ManageData = ManagePage['manage'];
type ManageExpected = Expected & {
  /** The booking as the server last gave it (the page, a change saved): what it allows decides the buttons. */
  booking?: ManageData;
  /** A notice that shows on the booking once it is loaded again (a difference paid). */
  then?: string;
};
const BOOKING_AT = /^\/api\/v1\/manage\/BK-[A-Z0-9]{8}$/;

/** The booking's page as issue 27 has it: its heading, the buttons the server allows, a notice or a refusal. */
function bookingPage(m: ManageData, more: { notice?: string; alert?: string; dialog?: Seen['dialog'] } = {}): ManageExpected {
  const cancelled = m.status === 'cancelled';
  const texts: (string | RegExp)[] = [];
  const buttons: (string | RegExp)[] = [];
  if (m.may.change) buttons.push('Change details or time');
  else if (!cancelled) texts.push('Changes can no longer be made here.');
  if (m.waiting_change && m.may.change) buttons.push('Pay the difference');
  if (m.may.cancel) buttons.push('Cancel booking');
  if (m.has_receipt) buttons.push(/^Download (receipt|VAT invoice)/);
  // A dialog open over the page leaves it out of reach until it closes.
  const behind = more.dialog ? {} : { texts, buttons };
  return {
    screen: cancelled ? 'manageCancelled' : 'manageBooking', search: '', booking: m, ...behind,
    statuses: more.notice ? [more.notice] : [], alerts: more.alert ? [more.alert] : [], dialog: more.dialog,
  };
}
const editing = (m: ManageData | undefined, more: Partial<Seen> = {}): ManageExpected => ({ screen: 'manageEditing', search: '', booking: m, ...more });

/**
 * Issue 27's manage page (decisions 42 and 43), by what the person did and what the server answered: the link's key
 * read from the tab, the booking loaded, a change saved or its new price asked about or its difference paid, the
 * cancelling, the receipt, and Find my booking. Written apart from machines/manage.ts.
 */
const manageOracle: PathOracle<{ location: { path: string } }, ManageExpected> = {
  calls: {
    loadBooking: { method: 'GET', path: BOOKING_AT },
    saveChange: { method: 'POST', path: /^\/api\/v1\/manage\/BK-[A-Z0-9]{8}\/changes$/ },
    cancelBooking: { method: 'POST', path: /^\/api\/v1\/manage\/BK-[A-Z0-9]{8}\/cancel$/ },
    downloadReceipt: { method: 'GET', path: /^\/api\/v1\/manage\/BK-[A-Z0-9]{8}\/receipt$/ },
    findBooking: { method: 'POST', path: `${API}/manage/find` },
  },
  localWaits: ['readKey'],
  opens: (_name, input) => (input.location.path === '/manage' ? { screen: 'manageFind', search: '' } : { waiting: 'readKey' }),
  after(before, e) {
    const m = before.booking;
    const service = serviceOf(e, { readKey, loadBooking, saveChange, cancelBooking, downloadReceipt, findBooking, cardPayment: card });
    if (service) {
      if (service === 'cardPayment') {
        // The difference paid on the card form: the booking is loaded again, and says so.
        return !isWaiting(before) && before.awaits === 'cardPayment' ? { waiting: 'loadBooking', then: MANAGE_NOTICES.paid } : undefined;
      }
      if (!isWaiting(before) || before.waiting !== service) return undefined;
      const a = e as Answer;
      const refused = a.error;
      switch (service) {
        case 'readKey': return a.output ? { waiting: 'loadBooking' } : { screen: 'manageNoKey', search: '' };
        case 'loadBooking':
          if (refused?.status === 404) return { screen: 'manageUnknown', search: '', alerts: [refused.message] };
          if (refused?.status === 410) return { screen: 'manageExpired', search: '', alerts: [refused.message] };
          if (refused) return { screen: 'manageUnloaded', search: '', alerts: [refused.message] };
          return bookingPage((a.output as ManagePage).manage, { notice: before.then });
        case 'saveChange': {
          if (refused) return editing(m, { alerts: [refused.message] });
          const answer = a.output as ChangeAnswer;
          if (answer.status === 'saved') return bookingPage(answer.manage, { notice: answer.refund ? MANAGE_NOTICES.savedRefund : MANAGE_NOTICES.saved });
          if (answer.status === 'confirm_price') return editing(m, { dialog: { title: 'The price has changed', role: 'dialog' } });
          return { screen: 'managePaying', search: '', booking: m, awaits: 'cardPayment' };
        }
        case 'cancelBooking':
          if (refused) return bookingPage(m!, { alert: refused.message });
          return bookingPage((a.output as ManagePage).manage, { notice: MANAGE_NOTICES.cancelled });
        case 'downloadReceipt': return bookingPage(m!, refused ? { alert: refused.message } : { notice: MANAGE_NOTICES.receipt });
        default:
          return refused ? { screen: 'manageFind', search: '', alerts: [refused.message] }
            : { screen: 'manageFindSent', search: '', statuses: [String(a.output)] };
      }
    }
    if (isWaiting(before)) return undefined;
    const on = before.screen;
    switch (e.type) {
      case 'url.changed': {
        const { path } = e as unknown as { path: string };
        return path === '/manage' ? { screen: 'manageFind', search: '' } : { waiting: 'readKey' };
      }
      case 'retry': return on === 'manageUnloaded' ? { waiting: 'loadBooking' } : undefined;
      case 'edit.open': return on === 'manageBooking' && m?.may.change && !before.dialog ? editing(m) : undefined;
      case 'edit.close': return on === 'manageEditing' && !before.dialog ? bookingPage(m!) : undefined;
      case 'change.submit': return on === 'manageEditing' && !before.dialog ? { waiting: 'saveChange', booking: m } : undefined;
      case 'price.accept': return before.dialog?.title === 'The price has changed' ? { waiting: 'saveChange', booking: m } : undefined;
      case 'price.decline': return before.dialog?.title === 'The price has changed' ? editing(m) : undefined;
      case 'payment.start': return on === 'manageBooking' && m?.waiting_change && m.may.change
        ? { screen: 'managePaying', search: '', booking: m, awaits: 'cardPayment' } : undefined;
      case 'payment.close': return on === 'managePaying' ? { waiting: 'loadBooking' } : undefined;
      case 'cancel.open': return on === 'manageBooking' && m?.may.cancel && !before.dialog
        ? bookingPage(m, { dialog: { title: 'Cancel this booking?', role: 'dialog' } }) : undefined;
      case 'cancel.close': return before.dialog?.title === 'Cancel this booking?' ? bookingPage(m!) : undefined;
      case 'cancel.confirm': return before.dialog?.title === 'Cancel this booking?' ? { waiting: 'cancelBooking', booking: m } : undefined;
      case 'receipt.download': return m?.has_receipt && !before.dialog ? { waiting: 'downloadReceipt', booking: m } : undefined;
      case 'find.submit': return on === 'manageFind' ? { waiting: 'findBooking' } : undefined;
      case 'find.again': return on === 'manageFindSent' ? { screen: 'manageFind', search: '' } : undefined;
      default: return undefined;
    }
  },
};

browserPaths({
  model,
  width: 1280,
  // What a person can do: nothing while a call decides the screen; a button only where it is shown.
  // What the live streams and the phone's position tell the page (issue 41): driven in Chromium by e2e/live-tracking.
  // A payment link's page (issue 43) is its own machine's, with its own browser paths (payLink.paths.test.ts): the way in.
  outsideThePage: ['job.live', 'manage.routing (always) #1'],
  allows: (s, e) => {
    const answer = /^xstate\.(done|error)\./.test(e.type);
    if (s.hasTag('busy') || s.matches({ booking: 'downloading' }) || s.matches({ booking: 'keying' })) return answer;
    const ev = e as AnyEventObject;
    const m = s.context.page?.manage;
    switch (ev.type) {
      case 'url.changed': return ev.path.toUpperCase() !== s.context.location.path.toUpperCase() && !ev.path.startsWith('/pay/');
      case 'edit.open': return s.matches({ booking: 'viewing' }) && m?.may.change === true;
      case 'cancel.open': return s.matches({ booking: 'viewing' }) && m?.may.cancel === true;
      case 'payment.start': return s.matches({ booking: 'viewing' }) && Boolean(m?.waiting_change) && m?.may.change === true;
      case 'receipt.download': return s.matches({ booking: 'viewing' }) && m?.has_receipt === true;
      // A wrong or expired link offers Find my booking, not Try again.
      case 'retry': return s.matches({ booking: 'failed' }) && s.context.error?.status !== 404 && s.context.error?.status !== 410;
      default: return true;
    }
  },
  async open(p, _inputName, input, { then }) {
    Object.assign(p.data, await cardBooking(p));
    await arrange(p, then);
    const path = hrefOf(p, input.location.path);
    if (path === '/manage') return p.typeUrl(path);
    const found = answerFrom(then, readKey);
    if (found?.error) {
      // A document of the site that does not start the app, to write the tab's storage first.
      await p.page.goto(`${p.server.url}/storage/vehicles/saloon.svg`);
      await arrangeKey(p, then);
      return p.typeUrl(path);
    }
    if (found?.output) await holdUnanswered(p, then, loadBooking, 'GET', `${API}/manage/${ref(p)}`);
    await p.typeUrl(found?.output ? `${path}#key=${key(p)}` : path);
  },
  acts: {
    'url.changed /manage/bk-abcdefgh': (p, { then }) => go(p, '/manage/bk-abcdefgh', then),
    'url.changed /manage': (p, { then }) => go(p, '/manage', then),
    retry: async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadBooking, 'GET', `${API}/manage/${ref(p)}`);
      await button(p, 'Try again').click();
    },
    'edit.open': async (p) => { await button(p, 'Change details or time').click(); },
    'edit.close': async (p) => { await button(p, 'Discard changes').click(); },
    'change.submit': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, saveChange, 'POST', `${API}/manage/${ref(p)}/changes`);
      await p.page.getByLabel('Flight number').fill('BA 117');
      await p.page.getByLabel('Pickup hour').selectOption('9am');
      await button(p, 'Save changes').click();
    },
    'price.accept': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, saveChange, 'POST', `${API}/manage/${ref(p)}/changes`);
      await dialog(p, 'The price has changed').getByRole('button', { name: /^Continue to pay/ }).click();
    },
    'price.decline': async (p) => { await dialog(p, 'The price has changed').getByRole('button', { name: 'Go back to my change' }).click(); },
    'payment.start': async (p) => { await button(p, 'Pay the difference').click(); },
    'payment.close': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadBooking, 'GET', `${API}/manage/${ref(p)}`);
      await button(p, 'Not now').click();
    },
    // The card sub-machine's own paths walk its states; here the difference is paid, as a person pays it.
    'cardPayment done': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, loadBooking, 'GET', `${API}/manage/${ref(p)}`);
      await payWith(p, CARDS.approved);
    },
    'cancel.open': async (p) => { await button(p, 'Cancel booking').click(); },
    'cancel.close': async (p) => { await dialog(p, 'Cancel this booking?').getByRole('button', { name: 'Keep my booking' }).click(); },
    'cancel.confirm': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, cancelBooking, 'POST', `${API}/manage/${ref(p)}/cancel`);
      await dialog(p, 'Cancel this booking?').getByRole('button', { name: 'Yes, cancel my booking' }).click();
    },
    'receipt.download': async (p, { then }) => {
      await arrange(p, then);
      await button(p, /^Download (receipt|VAT invoice)/).click();
    },
    'find.submit BK-ABCDEFGH amelia@example.com': async (p, { then }) => {
      await arrange(p, then);
      await holdUnanswered(p, then, findBooking, 'POST', `${API}/manage/find`);
      await p.page.getByLabel('Booking reference').fill(ref(p));
      await p.page.getByLabel('E-mail address').fill('amelia@example.com');
      await button(p, 'Send me the link').click();
    },
    'find.again': async (p) => { await button(p, 'Find another booking').click(); },
  },
  oracle: manageOracle,
});
