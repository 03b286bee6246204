// The model of machines/manage.ts (a passenger's booking through its link, and Find my booking: issue 27) that
// paths are generated from (test/machine/modelPaths.ts): the events a test may send, the inputs it starts from, and
// the facts of the issue each state keeps, worked out from the events of the path.
import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import {
  MANAGE_NOTICES, manageMachine, manageScreen, type ChangeAnswer, type ManageEvent, type ManageInput, type ManagePage, type ManageSnapshot,
} from '../../../machines/manage';
import type { CardPaymentInput, CardPaymentOutput } from '../../../machines/cardPayment';
import { MANAGE_MESSAGES } from '../../../src/domain/manageRules';
import type { LiveJob } from '../../../src/domain/tracking';
import { CHANGE_MESSAGES, type ChangeValues } from '../../../src/domain/manageChanges';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { bookingOk } from '../fixtures';

export const readKey = answers(manageMachine, 'readKey');
export const loadBooking = answers(manageMachine, 'loadBooking');
export const saveChange = answers(manageMachine, 'saveChange');
export const cancelBooking = answers(manageMachine, 'cancelBooking');
export const downloadReceipt = answers(manageMachine, 'downloadReceipt');
export const findBooking = answers(manageMachine, 'findBooking');
export const card = answers(manageMachine, 'cardPayment');
export const SERVICES = ['readKey', 'loadBooking', 'saveChange', 'cancelBooking', 'downloadReceipt', 'findBooking', 'cardPayment'] as const;

/** The card sub-machine stands aside (its own model walks it): its answer is the model's `card` event. */
export const cardStandIn = fromPromise<CardPaymentOutput, CardPaymentInput>(() => new Promise(() => {}));
/** A payment link's page (issue 43) stands aside too: its own model (./payLink.ts) walks it. */
export const payStandIn = fromPromise<void, { location: { path: string; search: string } }>(() => new Promise(() => {}));
export const machine = manageMachine.provide({ actors: { cardPayment: cardStandIn as never, payLink: payStandIn as never } });

export const REF = 'BK-ABCDEFGH';
export const KEY = 'kQ3v_8s2Lw0pXr5tYb7nM1cZ4dF6gH9jK2lN5pR8sT0';
export const url = (path: string): ManageEvent => ({ type: 'url.changed', path, search: '' });

export const values: ChangeValues = {
  passenger_name: 'Amelia Hart', passenger_phone: '+447700900012', passenger_email: 'amelia@example.com', flight_no: '',
  return_flight_no: '', sign_text: '', additional_info: '', pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15',
};
const changed: ChangeValues = { ...values, flight_no: 'BA 117', pickup_hour: '9am' };
/** The driver's job as the page follows it (issue 41 §3): accepted, then on the way with the car 2.4 miles off. */
const driver = { name: 'Daniel Price', vehicle: 'Toyota Prius', colour: 'White', registration: 'LF68 TXI' };
export const accepted: LiveJob = { booking_status: 'confirmed', status: 'accepted', words: 'Your driver has accepted the job', driver, car: null };
export const onTheWay: LiveJob = {
  ...accepted, status: 'on_way', words: 'Your driver is on the way',
  car: { lat: 51.47, lon: -0.45, at: '2030-09-12T05:55:00.000Z', approach: { miles: 2.4, minutes: 8, words: '2.4 miles away, about 8 min' } },
};
/** Issue 42: the flight moved the pickup (landing 55 minutes late): the page loads it again to show the new time. */
export const flightMoved: LiveJob = { ...accepted, flight: { pickup_at: '2030-09-12T07:10:00.000Z', said: 'delayed|2030-09-12T06:40:00Z||' } };
/** The flight's news changed, the pickup not (a later estimate still before the time booked): loaded again. */
export const flightNews: LiveJob = { ...flightMoved, flight: { ...flightMoved.flight!, said: 'delayed|2030-09-12T06:50:00Z||' } };
/** The pickup moved with the same news (the office allowed earlier pickups): loaded again. */
export const flightPickup: LiveJob = { ...flightMoved, flight: { ...flightMoved.flight!, pickup_at: '2030-09-12T06:45:00.000Z' } };
/** One thing at a time moved on (issue 43's mutation run): the booking alone, the driver's name alone, the car alone. */
export const finishedOnly: LiveJob = { ...accepted, booking_status: 'completed', status: 'completed' };
export const otherDriver: LiveJob = { ...accepted, status: 'on_board', driver: { ...driver, name: 'Sana Iqbal' } };
export const otherCar: LiveJob = { ...accepted, status: 'arrived', driver: { ...driver, registration: 'LB19 XKE' } };
/** The office cancelled the booking meanwhile: the page loads it again. */
export const officeCancelled: LiveJob = { ...accepted, booking_status: 'cancelled', status: null, words: null, driver: null };
const manage = (over: Partial<ManagePage['manage']> = {}): ManagePage['manage'] => ({
  job: accepted,
  status: 'confirmed', status_words: 'Confirmed', driver: null, cancelled: null, refund: null, breakdown: [],
  payment: { method: 'card', status: 'paid', test: true }, pickup_words: 'Thursday 12 September 2030 at 07:15',
  change_until: 'Thursday 12 September 2030 at 05:15', cancel_until: 'Wednesday 11 September 2030 at 07:15',
  pickup_at: '2030-09-12T06:15:00.000Z', original_pickup_at: '2030-09-12T06:15:00.000Z',
  may: { change: true, cancel: true }, form: values, waiting_change: null, has_return: false, meet_and_greet: true, has_receipt: true,
  ...over,
});
export const open: ManagePage = { booking: bookingOk.data!, manage: manage() };
/** Too near the pickup to change or cancel online, a change of an earlier visit still waiting for its payment. */
export const closed: ManagePage = {
  booking: bookingOk.data!,
  manage: manage({ may: { change: false, cancel: false }, waiting_change: { id: 4, amount_pence: 2000, new_total: '82.00', asked_at: 'Monday 2 September 2030 at 10:00' } }),
};
export const followingFlight: ManagePage = { ...open, manage: { ...open.manage, job: flightMoved } };
export const waiting: ManagePage = { ...open, manage: { ...open.manage, waiting_change: { id: 4, amount_pence: 2000, new_total: '82.00', asked_at: 'Monday 2 September 2030 at 10:00' } } };
const cancelled: ManagePage = { ...open, manage: manage({ status: 'cancelled', may: { change: false, cancel: false } }) };
export const saved: ChangeAnswer = { status: 'saved', refund: null, booking: bookingOk.data!, manage: manage({ form: changed }) };
export const question: ChangeAnswer = { status: 'confirm_price', outcome: 'pay', old_total: '62.00', new_total: '82.00', difference: '20.00' };
export const toPay: ChangeAnswer = { status: 'payment_required', change_id: 5, amount_pence: 2000, new_total: '82.00' };

/** A refusal as the page's calls throw it (src/web/views/manage/manageApi.ts): its message, status and field. */
export const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
const unknown = refusal(MANAGE_MESSAGES.unknownLink, { status: 404 });
const expired = refusal(MANAGE_MESSAGES.expiredLink, { status: 410 });
const tooLate = refusal(CHANGE_MESSAGES.tooLate, { status: 409 });
const badPhone = refusal('Please enter a valid phone number', { status: 422, field: 'passenger_phone' });
const badReference = refusal('Enter the reference as it is on your confirmation, like BK-7KQ2M9XD.', { status: 422, field: 'reference' });

export const EVENTS: ModelEvent<ManageEvent>[] = [
  url('/manage/bk-abcdefgh'),
  url('/manage'),
  // Issue 43: a card payment link, a page of the manage area run by its own machine.
  url(`/pay/${REF}`),
  readKey.done(KEY),
  readKey.done(null),
  readKey.fails(refusal('The browser refused to read its storage.')),
  loadBooking.done(open),
  loadBooking.done(waiting),
  loadBooking.done(closed),
  // Issue 42: a booking whose flight has moved its pickup already.
  loadBooking.done(followingFlight),
  loadBooking.fails(unknown),
  loadBooking.fails(expired),
  loadBooking.fails(down),
  { type: 'retry' },
  { type: 'edit.open' },
  { type: 'edit.close' },
  { type: 'change.submit', values: changed },
  saveChange.done(saved),
  saveChange.done(question),
  saveChange.done(toPay),
  saveChange.fails(badPhone),
  saveChange.fails(tooLate),
  { type: 'price.accept' },
  { type: 'price.decline' },
  { type: 'payment.start' },
  { type: 'payment.close' },
  card.done({ booking: bookingOk.data! } satisfies CardPaymentOutput),
  { type: 'cancel.open' },
  { type: 'cancel.close' },
  { type: 'cancel.confirm' },
  cancelBooking.done(cancelled),
  cancelBooking.fails(tooLate),
  { type: 'receipt.download' },
  downloadReceipt.done(),
  downloadReceipt.fails(down),
  { type: 'find.submit', reference: REF, email: 'amelia@example.com' },
  findBooking.done(MANAGE_MESSAGES.findSent),
  findBooking.fails(badReference),
  { type: 'find.again' },
  { type: 'job.live', job: onTheWay },
  { type: 'job.live', job: officeCancelled },
  { type: 'job.live', job: flightMoved },
  { type: 'job.live', job: flightNews },
  { type: 'job.live', job: flightPickup },
  { type: 'job.live', job: finishedOnly },
  { type: 'job.live', job: otherDriver },
  { type: 'job.live', job: otherCar },
  // The stream says there is no job (yet), and a page loaded before there was one hears of one.
  { type: 'job.live', job: null },
  loadBooking.done({ ...open, manage: { ...open.manage, job: null } }),
];

export const INPUTS: Record<string, ManageInput> = {
  "a link from the booking's e-mail": { location: { path: `/manage/${REF}`, search: '' } },
  'a visit to /manage': { location: { path: '/manage', search: '' } },
};

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
const failed = (e: ModelEvent | undefined, service: { fails: (x: unknown) => { type: string } }) => e?.type === service.fails(null).type;
const outputOf = <T>(e: ModelEvent | undefined) => (e as Answer | undefined)?.output as T;

/**
 * Each call asks for the booking of the address with the link's key, and for what the person gave: the change and the
 * price they accepted, the difference to pay for the change waiting, the reference and e-mail of Find my booking.
 */
export function asksWhatWasGiven(s: ManageSnapshot, trail: Trail<ManageSnapshot>) {
  const c = s.context;
  const booking = { reference: REF, key: KEY };
  const find = trail.findLast((x) => x.event.type === 'find.submit')?.event as Extract<ManageEvent, { type: 'find.submit' }> | undefined;
  const want: Record<string, unknown> = {
    readKey: { reference: REF },
    loadBooking: booking,
    saveChange: { ...booking, values: changed, acceptTotal: c.acceptTotal },
    cancelBooking: booking,
    downloadReceipt: booking,
    findBooking: { reference: find?.reference, email: find?.email },
    payLink: { location: { path: `/pay/${REF}`, search: '' } },
    cardPayment: expect.objectContaining({
      booking: expect.objectContaining({ change: { ...booking, id: c.payment?.changeId } }), amountPence: c.payment?.amountPence, intentId: null,
    }),
  };
  for (const [service, given] of Object.entries(callsOpen(s))) {
    if (service in want) expect(given, `${service} is asked for what the person gave`).toEqual(want[service]);
  }
}

/** A person's step that the page acts on clears what the last one said: an error, the fields' errors, a notice. */
const CLEARING = ['url.changed', 'find.submit', 'retry', 'edit.open', 'edit.close', 'cancel.open', 'payment.start', 'receipt.download', 'change.submit'];

/**
 * Issue 41 §3: a booking's page follows its job from its first load until the booking is left; what it hears replaces
 * the job shown, and a booking that moved on (cancelled, another driver) is loaded again from the page's resting state.
 */
function followFacts(s: ManageSnapshot, trail: Trail<ManageSnapshot>) {
  expect(Boolean(s.children.followJob), 'a follower runs while a booking is open, and only then').toBe(s.matches('booking'));
  const last = trail.at(-1)?.event;
  const prev = trail.at(-2)?.state;
  if (last?.type !== 'job.live' || !prev?.context.page) return;
  const { job } = last as unknown as { job: LiveJob | null };
  expect(s.context.page?.manage.job).toEqual(job);
  const was = prev.context.page.manage.job;
  // Moved on: the booking's status, its driver or car, or its flight's news, against what the page showed (a job
  // heard of for the first time, or none, is shown as it is).
  const moved = Boolean(job && was) && (job!.booking_status !== was!.booking_status || job!.driver?.name !== was!.driver?.name
    || job!.driver?.registration !== was!.driver?.registration || job!.flight?.pickup_at !== was!.flight?.pickup_at || job!.flight?.said !== was!.flight?.said);
  if (prev.matches({ booking: 'viewing' })) expect(s.value).toEqual({ booking: moved ? 'loading' : 'viewing' });
  else expect(s.value).toEqual(prev.value);
}

export function spec(s: ManageSnapshot, trail: Trail<ManageSnapshot>, input: ManageInput) {
  asksWhatWasGiven(s, trail);
  followFacts(s, trail);
  const last = trail.at(-1)?.event;
  const c = s.context;
  // Nothing the page is told makes it stop: every refusal is shown.
  expect(s.status).toBe('active');
  const prev = trail.at(-2)?.state;
  if (last && prev && CLEARING.includes(last.type) && JSON.stringify(prev.value) !== JSON.stringify(s.value)) {
    expect([c.error, c.fieldErrors, c.notice], `${last.type} clears the messages`).toEqual([null, {}, null]);
  }
  // Issue 27: the address is the page's own, never the key: /manage, or /manage/ and the reference in capitals.
  const asked = (trail.findLast((x) => x.event.type === 'url.changed')?.event as { path: string } | undefined)?.path ?? input.location.path;
  // The screen the page draws is the address's: Find my booking, or the booking.
  expect(manageScreen(s)).toBe(asked === '/manage' ? 'manageFind' : asked.startsWith('/pay/') ? 'payLink' : 'manageBooking');
  if (asked.startsWith('/pay/')) {
    // Issue 43: a payment link's page, run by its own machine with the address (its key is the page's, never here).
    expect([s.matches('pay'), c.location]).toEqual([true, { path: asked, search: '' }]);
  } else if (asked === '/manage') {
    expect(s.matches('find')).toBe(true);
    expect(c.location).toEqual({ path: '/manage', search: '' });
  } else {
    expect(s.matches('booking')).toBe(true);
    expect(c.location).toEqual({ path: asked.toUpperCase().replace('/MANAGE/', '/manage/'), search: '' });
    expect(c.reference).toBe(REF);
  }
  expect(JSON.stringify(c.location)).not.toContain(KEY);

  // Without a key for this booking nothing is asked of the server: the page says how to get the link.
  if ((is(last, readKey.done()) && outputOf(last) === null) || failed(last, readKey)) expect(s.value).toEqual({ booking: 'noKey' });
  if (s.matches({ booking: 'loading' })) {
    expect(c.key).toBe(KEY);
    expect(s.hasTag('busy')).toBe(true);
  }
  // A wrong link is a clear page (its status kept for the words), another failure can be tried again.
  if (failed(last, loadBooking)) {
    expect(s.value).toEqual({ booking: 'failed' });
    expect(c.error).toEqual({ message: (last as Answer).error!.message, ...((last as Answer).error!.status ? { status: (last as Answer).error!.status } : {}) });
  }
  // The buttons follow what the server says the passenger may do.
  const may = c.page?.manage.may;
  if (last?.type === 'edit.open' && may && !may.change) expect(s.matches({ booking: 'editing' })).toBe(false);
  if (last?.type === 'cancel.open' && may && !may.cancel) expect(s.matches({ booking: 'confirmingCancel' })).toBe(false);
  if (s.matches({ booking: 'editing' }) || s.matches({ booking: 'confirmingCancel' })) expect(may).toBeTruthy();
  if (s.matches({ booking: 'editing' })) expect(may!.change).toBe(true);
  if (s.matches({ booking: 'confirmingCancel' })) expect(may!.cancel).toBe(true);
  // A change is sent as asked; a new price is confirmed first, then sent again with that price.
  if (s.matches({ booking: 'saving' })) {
    expect(c.draft).toEqual(changed);
    expect(s.hasTag('busy')).toBe(true);
    expect(c.acceptTotal).toBe(last?.type === 'price.accept' ? '82.00' : null);
  }
  if (is(last, saveChange.done()) && outputOf<ChangeAnswer>(last).status === 'confirm_price') {
    expect([s.value, c.question]).toEqual([{ booking: 'confirmingPrice' }, question]);
  }
  if (last?.type === 'price.decline') expect([s.value, c.draft, c.acceptTotal]).toEqual([{ booking: 'editing' }, changed, null]);
  // A higher card price is paid through the card sub-machine, for the waiting change and its difference.
  if (s.matches({ booking: 'paying' })) {
    const w = c.page?.manage.waiting_change;
    // What the job's follower says meanwhile changes nothing of the payment.
    const began = trail.findLast((x) => x.event.type !== 'job.live')?.event;
    expect(c.payment).toEqual(began?.type === 'payment.start' ? { changeId: w!.id, amountPence: w!.amount_pence, newTotal: w!.new_total } : { changeId: 5, amountPence: 2000, newTotal: '82.00' });
  }
  if (last?.type === 'payment.start' && !(c.page?.manage.waiting_change && c.page.manage.may.change)) expect(s.matches({ booking: 'paying' })).toBe(false);
  if (is(last, card.done())) expect([s.value, c.notice, c.payment]).toEqual([{ booking: 'loading' }, MANAGE_NOTICES.paid, null]);
  if (is(last, saveChange.done()) && outputOf<ChangeAnswer>(last).status === 'saved') {
    expect([s.value, c.notice, c.draft, c.page?.manage.form]).toEqual([{ booking: 'viewing' }, MANAGE_NOTICES.saved, null, changed]);
  }
  // A refusal naming a field shows under it, the change kept; another shows above the form.
  if (failed(last, saveChange)) {
    const e = (last as Answer).error!;
    expect(s.value).toEqual({ booking: 'editing' });
    expect(c.draft).toEqual(changed);
    if (e.field) expect([c.fieldErrors, c.error]).toEqual([{ [e.field]: e.message }, null]);
    else expect([c.fieldErrors, c.error?.message]).toEqual([{}, e.message]);
  }
  if (is(last, cancelBooking.done())) expect([s.value, c.notice, c.page?.manage.status]).toEqual([{ booking: 'viewing' }, MANAGE_NOTICES.cancelled, 'cancelled']);
  if (failed(last, cancelBooking)) expect([s.value, c.error?.message]).toEqual([{ booking: 'viewing' }, CHANGE_MESSAGES.tooLate]);
  if (is(last, downloadReceipt.done())) expect([s.value, c.notice]).toEqual([{ booking: 'viewing' }, MANAGE_NOTICES.receipt]);
  if (failed(last, downloadReceipt)) expect([s.value, c.error?.message]).toEqual([{ booking: 'viewing' }, down.message]);

  // Find my booking: the answer is the server's words; a refusal names its field.
  if (is(last, findBooking.done())) expect([s.value, c.findSent]).toEqual([{ find: 'sent' }, MANAGE_MESSAGES.findSent]);
  if (failed(last, findBooking)) expect([s.value, c.fieldErrors]).toEqual([{ find: 'editing' }, { reference: badReference.message }]);
  if (s.matches({ find: 'sending' })) expect(s.hasTag('busy')).toBe(true);
}

/**
 * Issue 27's page: Find my booking's form and 'Find another booking'; on the booking, the buttons the server allows
 * (change, cancel, pay the difference, the receipt), the change form's Save and Discard, the price question's two
 * answers, the card form's 'Not now', the cancel dialog's two answers, and 'Try again' after a failed load.
 */
export function offers(s: ManageSnapshot): ModelEvent<ManageEvent>[] {
  const m = s.context.page?.manage;
  if (s.matches({ find: 'editing' })) return [{ type: 'find.submit', reference: REF, email: 'amelia@example.com' }];
  if (s.matches({ find: 'sent' })) return [{ type: 'find.again' }];
  if (s.matches({ booking: 'viewing' }) && m) {
    return [
      ...m.may.change ? [{ type: 'edit.open' } as const] : [],
      ...m.may.cancel ? [{ type: 'cancel.open' } as const] : [],
      ...m.waiting_change && m.may.change ? [{ type: 'payment.start' } as const] : [],
      ...m.has_receipt ? [{ type: 'receipt.download' } as const] : [],
    ];
  }
  if (s.matches({ booking: 'editing' })) return [{ type: 'change.submit', values: changed }, { type: 'edit.close' }];
  if (s.matches({ booking: 'confirmingPrice' })) return [{ type: 'price.accept' }, { type: 'price.decline' }];
  if (s.matches({ booking: 'paying' })) return [{ type: 'payment.close' }];
  if (s.matches({ booking: 'confirmingCancel' })) return [{ type: 'cancel.confirm' }, { type: 'cancel.close' }];
  const status = s.context.error?.status;
  if (s.matches({ booking: 'failed' }) && status !== 404 && status !== 410) return [{ type: 'retry' }];
  return [];
}

export const model: Model<typeof machine> = {
  name: 'manage machine',
  machine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([
    s.value, s.context.location, s.context.key, s.context.page?.manage.may ?? null, s.context.page?.manage.waiting_change?.id ?? null,
    s.context.page?.manage.status ?? null, s.context.draft !== null, s.context.acceptTotal, s.context.question !== null, s.context.payment,
    s.context.error?.message ?? null, s.context.fieldErrors, s.context.notice, s.context.findSent, s.context.page?.manage.job ?? null,
  ]),
  facts: spec,
  offers,
  deciding: ['findBooking', 'loadBooking', 'saveChange', 'cancelBooking'],
  factsTitle: "issue 27's manage page: the link, the buttons, changes, payments and cancelling",
  services: SERVICES,
  depth: () => 6,
};
