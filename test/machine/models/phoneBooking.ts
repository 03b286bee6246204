// The model of machines/phoneBooking.ts (issue 43 §1, the console's New booking) that paths are generated from
// (test/machine/modelPaths.ts): the events a test may send, and the facts each state keeps, worked out from the events
// of the path. The page runs as the console's child: a 401 is told to the console.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { phoneBookingMachine, PHONE_NOTICES, type Journey, type PhoneBookingEvent, type PhoneBookingResult, type PhoneDetails } from '../../../machines/phoneBooking';
import type { ConsolePageInput } from '../../../machines/consolePage';
import type { BookingForm, HourlyRateForm, PriceDetail } from '../../../src/domain/schemas';
import { MESSAGES } from '../../../src/domain/operatorDesk';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { staff } from './operator';

export type Snapshot = SnapshotFrom<typeof phoneBookingMachine>;

export const price = answers(phoneBookingMachine, 'priceJourney');
export const find = answers(phoneBookingMachine, 'findPassengers');
export const take = answers(phoneBookingMachine, 'takeBooking');

const transfer: Journey = {
  bookingType: 'milleage',
  form: { pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', pickup_date: '2030-09-12', pickup_hour: '8am', pickup_min: '30', passengers: 2 } as BookingForm,
};
const hourly: Journey = {
  bookingType: 'hourly',
  form: { pickup: 'Paddington Station, Praed Street, London W2 1HQ', pickup_date: '2030-09-12', pickup_hour: '8am', pickup_min: '30', pickup_duration: '4hour' } as HourlyRateForm,
};
const offer = (vehicle_id: number, company_id: number, priceText: string) => ({ vehicle_id, company_id, price: priceText, vehicle_type: 'Saloon', company_name: 'Albion Executive Cars' }) as PriceDetail;
export const OFFERS = [offer(1, 1, '62.00'), offer(6, 2, '0.00')];
export const details: PhoneDetails = {
  registrationData: { firstName: 'Margaret', surname: 'Ellis', number: '07700 900341', email: 'margaret.ellis@example.com', passengerDetails: 'no', additionalInfo: '', return_additionalInfo: '' },
  passenger_id: null, payment: 'link', price: { amount: '55', reason: 'Regular customer' },
};
const result: PhoneBookingResult = {
  booking: { booking: { booking_number: 'BK-PH0NE123' } } as PhoneBookingResult['booking'],
  link: { url: 'http://localhost/pay/BK-PH0NE123#key=x', sent_to: 'margaret.ellis@example.com', expires_at: '2030-09-11T08:00:00.000Z' }, replayed: false,
};
const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const sessionEnded = refusal(MESSAGES.sessionEnded, { status: 401 });
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
const pickupRefused = refusal('The pickup time has passed: choose a later time.', { status: 422, field: 'pickup_date' });
const emailRefused = refusal('booking.registrationData.email: must be one e-mail address, like name@example.com', { status: 422, field: 'booking.registrationData.email' });

export const EVENTS: ModelEvent<PhoneBookingEvent>[] = [
  { type: 'journey.price', journey: transfer },
  { type: 'journey.price', journey: hourly },
  price.done(OFFERS),
  price.fails(pickupRefused),
  price.fails(sessionEnded),
  { type: 'journey.changed' },
  { type: 'vehicle.choose', vehicle_id: 1, company_id: 1 },
  // Offered without a price (booked through a quote), and not offered at all: not chosen.
  { type: 'vehicle.choose', vehicle_id: 6, company_id: 2 },
  { type: 'vehicle.choose', vehicle_id: 9, company_id: 9 },
  // A vehicle priced, but of another company; and a company that priced, but not that vehicle: neither is on the list.
  { type: 'vehicle.choose', vehicle_id: 1, company_id: 2 },
  { type: 'vehicle.choose', vehicle_id: 9, company_id: 1 },
  { type: 'book', details },
  take.done(result),
  take.fails(emailRefused),
  take.fails(down),
  take.fails(sessionEnded),
  { type: 'again' },
  // Searched for as typed, less the spaces around it; two letters are enough, one (with spaces around it) is not.
  { type: 'passenger.find', q: ' ellis ' },
  { type: 'passenger.find', q: 'el' },
  { type: 'passenger.find', q: ' e ' },
  find.done([{ account_id: null, name: 'Margaret Ellis', email: 'margaret.ellis@example.com', phone: '+447700900341', last_booked: '12/09/2030', billing: null }]),
  find.fails(down),
  find.fails(sessionEnded),
];

export const INPUTS: Record<string, ConsolePageInput> = {
  'New booking in the console': { location: { path: '/operator/new-booking', search: '' }, staff },
};

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
/** Each call's answers, for the check that the state hears every answer of every call it waits for. */
const ANSWERS: Record<string, { answer: ReturnType<typeof answers>; output: unknown }> = {
  priceJourney: { answer: price, output: OFFERS }, findPassengers: { answer: find, output: [] }, takeBooking: { answer: take, output: result },
};
const ended = (e: ModelEvent | undefined) => (is(e, price.fails(null)) || is(e, take.fails(null)) || is(e, find.fails(null))) && (e as Answer).error?.status === 401;

/** The journey last sent for pricing, and whether prices for it are on screen now (none since a change or another journey). */
function pricedJourney(trail: Trail<Snapshot>): { journey: Journey | null; priced: boolean; chosen: PriceDetail | null } {
  let journey: Journey | null = null;
  let priced = false;
  let chosen: PriceDetail | null = null;
  for (const [i, { event: e }] of trail.entries()) {
    const before = trail[i - 1]?.state;
    const inTrip = (state: string) => before?.matches({ trip: state } as never) ?? state === 'journey';
    if (e.type === 'journey.price' && (inTrip('journey') || inTrip('priced'))) { journey = (e as Extract<PhoneBookingEvent, { type: 'journey.price' }>).journey; priced = false; chosen = null; }
    if (is(e, price.done())) { priced = true; chosen = null; }
    if (is(e, price.fails(null))) { priced = false; journey = null; }
    if (e.type === 'journey.changed' && inTrip('priced')) { priced = false; journey = null; chosen = null; }
    if (e.type === 'vehicle.choose' && inTrip('priced')) {
      const v = e as Extract<PhoneBookingEvent, { type: 'vehicle.choose' }>;
      const o = OFFERS.find((x) => x.vehicle_id === v.vehicle_id && x.company_id === v.company_id && Number(x.price) > 0);
      if (o) chosen = o;
    }
    if (e.type === 'again' && inTrip('done')) { journey = null; priced = false; chosen = null; }
  }
  return { journey, priced, chosen };
}

export function facts(s: Snapshot, trail: Trail<Snapshot>) {
  const last = trail.at(-1);
  const e = last?.event;
  const { journey, priced, chosen } = pricedJourney(trail);
  const open = callsOpen(s);
  // Every answer of a call it waits for is heard: done, refused, or the session ended.
  if (!ended(e)) {
    for (const src of Object.keys(open)) {
      const { answer, output } = ANSWERS[src];
      for (const a of [answer.done(output), answer.fails(down), answer.fails(sessionEnded)]) expect(s.can(a as never), `${src}: ${a.type} is heard`).toBe(true);
    }
  }
  // The booking's Idempotency-Key is always one (32 hex digits).
  expect(s.context.key).toMatch(/^[0-9a-f]{32}$/);
  // What the dispatcher does on the trip starts afresh: the message of a refusal goes.
  if (['journey.price', 'journey.changed', 'vehicle.choose', 'book'].includes(e?.type ?? '')) expect(s.context.error).toBeNull();
  // Prices on screen are the journey's last priced; a vehicle chosen is one of them with a price; a change clears them.
  if (!ended(e)) {
    if (s.matches({ trip: 'priced' }) || s.matches({ trip: 'booking' })) expect([s.context.journey, s.context.offers !== null]).toEqual([journey, true]);
    if (s.matches({ trip: 'journey' })) expect([s.context.offers, s.context.chosen]).toEqual([null, null]);
    expect(s.context.chosen).toEqual(s.matches({ trip: 'journey' }) ? null : chosen);
    if (s.matches({ trip: 'pricing' })) expect(open.priceJourney).toEqual(journey);
    expect(priced).toBe(s.context.offers !== null);
  }
  // A booking is sent only with a vehicle chosen, for the priced journey, with the page's one key.
  if (s.matches({ trip: 'booking' }) && !ended(e)) {
    expect(open.takeBooking).toEqual({ key: s.context.key, journey, vehicle: chosen, details });
  }
  expect(s.can({ type: 'book', details })).toBe(s.matches({ trip: 'priced' }) && chosen !== null);
  // The key stays the same for a booking's retries, and is new for the next booking.
  const prev = trail.at(-2)?.state;
  if (prev && e?.type !== 'again') expect(s.context.key).toBe(prev.context.key);
  if (prev && e?.type === 'again' && prev.matches({ trip: 'done' })) {
    expect(s.context.key).not.toBe(prev.context.key);
    expect([s.value, s.context.result, s.context.found]).toEqual([{ trip: 'journey', search: prev.matches({ search: 'searching' }) ? 'searching' : 'idle' }, null, null]);
  }
  if (is(e, take.done())) expect([s.matches({ trip: 'done' }), s.context.result]).toEqual([true, result]);
  // Refused: the page stays as typed, the message on its field; a 401 is told to the console.
  if (is(e, take.fails(null)) && !ended(e)) expect([s.matches({ trip: 'priced' }), s.context.error?.message, s.context.chosen]).toEqual([true, (e as Answer).error!.message, chosen]);
  if (is(e, price.fails(null)) && !ended(e)) expect([s.matches({ trip: 'journey' }), s.context.error?.field]).toEqual([true, 'pickup_date']);
  if (ended(e)) expect(last!.effects.toParent).toEqual([{ type: 'page.sessionEnded' }]);
  else if (last) expect(last.effects.toParent).toEqual([]);
  // The search: at least 2 characters asked for, its answer kept; refused short, with its message.
  if (e?.type === 'passenger.find' && (prev?.matches({ search: 'idle' }) ?? true)) {
    const q = (e as Extract<PhoneBookingEvent, { type: 'passenger.find' }>).q.trim();
    if (q.length < 2) expect([s.matches({ search: 'idle' }), s.context.searchError]).toEqual([true, { message: PHONE_NOTICES.searchShort, field: 'q' }]);
    else expect([open, s.context.searchError]).toEqual([{ ...open, findPassengers: { q } }, null]);
  }
  if (is(e, find.done())) expect([s.matches({ search: 'idle' }), s.context.found]).toEqual([true, (e as Answer).output]);
  if (is(e, find.fails(null)) && !ended(e)) expect([s.matches({ search: 'idle' }), s.context.found, s.context.searchError]).toEqual([true, null, { message: down.message }]);
}

/** What the page offers: Get prices, a vehicle's radio, Take booking once one is chosen, Find, Take another booking. */
export const offers = (s: Snapshot): ModelEvent<PhoneBookingEvent>[] => [
  ...(s.matches({ trip: 'journey' }) || s.matches({ trip: 'priced' }) ? [{ type: 'journey.price', journey: transfer } as const] : []),
  ...(s.matches({ trip: 'priced' }) ? [{ type: 'vehicle.choose', vehicle_id: 1, company_id: 1 } as const, { type: 'journey.changed' } as const] : []),
  ...(s.matches({ trip: 'priced' }) && s.context.chosen ? [{ type: 'book', details } as const] : []),
  ...(s.matches({ trip: 'done' }) ? [{ type: 'again' } as const] : []),
  ...(s.matches({ search: 'idle' }) ? [{ type: 'passenger.find', q: ' ellis ' } as const] : []),
];

export const model: Model<typeof phoneBookingMachine> = {
  name: 'new booking machine',
  machine: phoneBookingMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.context.journey?.bookingType ?? null, s.context.chosen?.vehicle_id ?? null, s.context.error?.field ?? null, s.context.error !== null,
    s.context.found !== null, s.context.searchError !== null, s.context.result !== null]),
  facts,
  offers,
  factsTitle: "issue 43's phone bookings",
  services: ['priceJourney', 'findPassengers', 'takeBooking'],
  // Pricing and taking the booking decide the next screen; a passenger search runs beside them.
  deciding: ['priceJourney', 'takeBooking'],
  describeState: (s) => JSON.stringify(s.value).replace(/[{}"]/g, ''),
  depth: () => 6,
};
