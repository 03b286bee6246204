// The manage page's generated paths in Chromium (./pathRunner.ts), issue 27: a passenger's booking opened from its
// link, changed, paid for, cancelled, its receipt downloaded, and Find my booking, on the real page against the real
// server. Each path has a booking of its own: paid by card, with meet and greet, two weeks ahead. The server's
// answers are real where the booking gives them (the page, a change saved, a new price to confirm, the difference
// paid through the local test gateway, the cancellation, the receipt); the rest are asked of it (a dropped call, a
// refusal naming a field, a page too near its pickup to change).
import type { AnyEventObject } from 'xstate';
import type { ManageSnapshot } from '../../machines/manage';
import { MANAGE_NOTICES } from '../../machines/manage';
import type { BookingResponse } from '../../src/domain/schemas';
import { MANAGE_MESSAGES } from '../../src/domain/manageRules';
import { formatExactPrice, penceToPounds } from '../../src/domain/money';
import {
  cancelBooking, closed, downloadReceipt, findBooking, loadBooking, model, readKey, saveChange, waiting,
} from '../machine/models/manage';
import type { ModelEvent, Trail } from '../machine/modelPaths';
import { browserPaths, type PathPage } from './pathRunner';
import { pricesFor, trip, uniqueEmail } from './data';
import { CARDS, payWith } from './cardSteps';
import { entriesOf } from './storage';
import { signIn } from './data';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';

type S = ManageSnapshot;
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

browserPaths({
  model,
  width: 1280,
  // What a person can do: nothing while a call decides the screen; a button only where it is shown.
  allows: (s, e) => {
    const answer = /^xstate\.(done|error)\./.test(e.type);
    if (s.hasTag('busy') || s.matches({ booking: 'downloading' }) || s.matches({ booking: 'keying' })) return answer;
    const ev = e as AnyEventObject;
    const m = s.context.page?.manage;
    switch (ev.type) {
      case 'url.changed': return ev.path.toUpperCase() !== s.context.location.path.toUpperCase();
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
  async sees(p, s: S, trail: Trail<S>) {
    const last = trail.at(-1)?.event as (ModelEvent & Answer) | undefined;
    const alert = (text: string) => p.page.getByRole('alert').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
    if (s.matches('find')) {
      await p.at('/manage', '');
      await p.heading(s.matches({ find: 'sent' }) ? 'Check your e-mail' : 'Find your booking');
      if (s.matches({ find: 'sent' })) await p.page.getByRole('status').filter({ hasText: MANAGE_MESSAGES.findSent }).waitFor({ timeout: 10_000 });
      if (isAnswer(last, findBooking) && last?.error) await alert(last.error.message);
      return;
    }
    // The address is the booking's own, in capitals, and never holds the key.
    await p.at(`/manage/${ref(p)}`, '');
    if (p.url.hash) throw new Error(`the address still holds ${p.url.hash}`);
    if (s.matches({ booking: 'noKey' })) return p.heading(`Open your booking ${ref(p)}`);
    // Finding the key is a read of the tab's own storage: a path that stops there may already see its outcome.
    if (s.matches({ booking: 'keying' })) {
      return p.page.getByText('Opening your booking').or(p.page.getByRole('heading', { name: `Open your booking ${ref(p)}` })).first().waitFor({ timeout: 10_000 });
    }
    if (s.matches({ booking: 'failed' })) {
      const status = s.context.error?.status;
      await p.heading(status === 404 ? 'We could not open this booking' : status === 410 ? 'This link has expired' : 'Your booking could not be loaded');
      await alert(s.context.error!.message);
      if (status === 404 || status === 410) await p.page.getByRole('link', { name: 'Find my booking' }).waitFor({ timeout: 10_000 });
      else await button(p, 'Try again').waitFor({ timeout: 10_000 });
      return;
    }
    if (!s.context.page) return p.sees('Opening your booking');
    const cancelled = s.context.page.manage.status === 'cancelled';
    await p.heading(cancelled ? 'Your booking is cancelled' : /^Your journey on /);
    if (s.context.notice) await p.page.getByRole('status').filter({ hasText: s.context.notice }).first().waitFor({ timeout: 10_000 });
    if (s.context.error && !s.matches({ booking: 'editing' })) await alert(s.context.error.message);
    if (s.matches({ booking: 'editing' }) || s.matches({ booking: 'saving' })) {
      await p.heading('Change your booking');
      const field = Object.values(s.context.fieldErrors)[0];
      if (field) await alert(field);
      if (s.context.error) await alert(s.context.error.message);
    }
    if (s.matches({ booking: 'confirmingPrice' })) await dialog(p, 'The price has changed').waitFor({ timeout: 10_000 });
    if (s.matches({ booking: 'confirmingCancel' })) await dialog(p, 'Cancel this booking?').waitFor({ timeout: 10_000 });
    if (s.matches({ booking: 'paying' })) {
      const amount = formatExactPrice(penceToPounds((p.data.waiting as { amount_pence: number }).amount_pence));
      await p.heading(`Pay the difference of ${amount}`);
    }
    if (s.matches({ booking: 'viewing' })) {
      // The buttons are the ones the server allows; a change waiting offers its payment.
      const m = s.context.page.manage;
      if (!cancelled || m.has_receipt) await p.page.getByRole('heading', { name: 'Manage your booking', exact: true }).waitFor({ timeout: 10_000 });
      if (m.may.change) await button(p, 'Change details or time').waitFor({ timeout: 10_000 });
      else if (!cancelled) await p.sees('Changes can no longer be made here.');
      if (m.waiting_change && m.may.change) await button(p, 'Pay the difference').waitFor({ timeout: 10_000 });
      if (isAnswer(last, downloadReceipt) && !last?.error) await p.sees(MANAGE_NOTICES.receipt);
    }
  },
});
