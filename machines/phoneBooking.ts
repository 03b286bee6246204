// The console's New booking (issue 43 §1; the rules are src/domain/phoneBookings.ts): a booking taken on the telephone
// with the website's own prices and booking call. A page of the console run as its child machine (./consolePage.ts).
// Two regions side by side: the trip (the journey priced, a vehicle chosen, the booking taken, then the next one) and
// the passenger search (a passenger on record found by name, phone or e-mail, whenever the dispatcher asks).
// The journey changed after pricing clears the prices: a booking is only ever sent for the vehicle and price on screen.
// One Idempotency-Key per booking: a retry or a double click takes it once; "Take another booking" starts a new one.
import { assign, sendParent, setup } from 'xstate';
import type { BookingForm, HourlyRateForm, PriceDetail, RegistrationData } from '../src/domain/schemas';
import type { BookingResult } from '../src/domain/schemas';
import type { PhonePayment, ManualPrice } from '../src/domain/phoneBookings';
import type { AccountBilling } from '../src/domain/accountPayment';
import { provided } from './shared';
import { newIdempotencyKey } from './bookingContext';
import { asCallError, isSessionEnd, SESSION_ENDED_EVENT, SESSION_ENDED_HERE, type ConsolePageInput } from './consolePage';
import type { CallError } from './operatorTypes';

/** The journey as priced: a transfer's form or an hourly hire's. */
export type Journey = { bookingType: 'milleage'; form: BookingForm } | { bookingType: 'hourly'; form: HourlyRateForm };

/**
 * A passenger on record (GET /operator/passengers): an account (account_id) or an earlier booking's details; an
 * account with the company account it books for (issue 44: the office may book on it).
 */
export interface FoundPassenger { account_id: number | null; name: string; email: string; phone: string; last_booked: string | null; billing: AccountBilling | null }

/** What the dispatcher gives besides the journey and the vehicle. */
export interface PhoneDetails {
  registrationData: RegistrationData;
  /** The account chosen from the search; null for details typed (or filled from an earlier booking). */
  passenger_id: number | null;
  payment: PhonePayment;
  price: ManualPrice | null;
  /** Paid on the passenger's company account: its fields' values by field id. */
  account_fields?: Record<string, string>;
}

/** POST /operator/phone-bookings's answer (src/server/operator/phoneBookings.ts). */
export interface PhoneBookingResult {
  booking: BookingResult;
  link: { url: string; sent_to: string; expires_at: string } | null;
  replayed: boolean;
}

export interface PhoneBookingContext {
  /** The Idempotency-Key of the booking being taken. */
  key: string;
  journey: Journey | null;
  offers: PriceDetail[] | null;
  chosen: PriceDetail | null;
  /** The passengers the last search found, and what it asked for. */
  found: FoundPassenger[] | null;
  searched: string | null;
  result: PhoneBookingResult | null;
  error: CallError | null;
  searchError: CallError | null;
}

export type PhoneBookingEvent =
  | { type: 'journey.price'; journey: Journey }
  | { type: 'journey.changed' }
  | { type: 'vehicle.choose'; vehicle_id: number; company_id: number }
  | { type: 'passenger.find'; q: string }
  | { type: 'book'; details: PhoneDetails }
  | { type: 'again' };

export const PHONE_NOTICES = {
  searchShort: 'Type at least 2 letters or digits of a name, phone or e-mail.',
} as const;

const isOffer = (o: PriceDetail, e: { vehicle_id: number; company_id: number }) => o.vehicle_id === e.vehicle_id && o.company_id === e.company_id;

export const phoneBookingMachine = setup({
  types: {
    context: {} as PhoneBookingContext,
    events: {} as PhoneBookingEvent,
    input: {} as ConsolePageInput,
  },
  actors: {
    /** POST /operator/quote/distance or /hourly: the website's prices for the journey, as the office asks them. */
    priceJourney: provided<PriceDetail[], Journey>('priceJourney'),
    /** GET /operator/passengers?q=. */
    findPassengers: provided<FoundPassenger[], { q: string }>('findPassengers'),
    /** POST /operator/phone-bookings with the key. */
    takeBooking: provided<PhoneBookingResult, { key: string; journey: Journey; vehicle: PriceDetail; details: PhoneDetails }>('takeBooking'),
  },
  actions: {
    tellSessionEnded: sendParent(SESSION_ENDED_EVENT),
    setError: assign((_, { error }: { error: unknown }) => ({ error: asCallError(error) })),
    clearPrices: assign({ offers: null, chosen: null, journey: null }),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    /** A vehicle on the list priced for this journey, with a price (one without is booked through a quote). */
    offered: ({ context }, e: { vehicle_id: number; company_id: number }) =>
      Boolean(context.offers?.some((o) => isOffer(o, e) && Number(o.price) > 0)),
    searchable: (_, q: string) => q.trim().length >= 2,
  },
}).createMachine({
  id: 'phoneBooking',
  type: 'parallel',
  context: () => ({
    key: newIdempotencyKey(), journey: null, offers: null, chosen: null, found: null, searched: null, result: null, error: null, searchError: null,
  }),
  states: {
    trip: {
      initial: 'journey',
      states: {
        // The journey being typed, not priced yet (or changed since).
        journey: {
          on: { 'journey.price': { target: 'pricing', actions: assign({ journey: ({ event }) => event.journey, error: null }) } },
        },
        pricing: {
          tags: 'busy',
          invoke: {
            src: 'priceJourney',
            input: ({ context }) => context.journey!,
            onDone: { target: 'priced', actions: assign({ offers: ({ event }) => event.output, chosen: null }) },
            onError: [SESSION_ENDED_HERE, { target: 'journey', actions: ['clearPrices', { type: 'setError', params: ({ event }) => ({ error: event.error }) }] }],
          },
        },
        // Prices on screen: a vehicle is chosen, and the booking taken with the passenger, the payment and a price set by hand.
        priced: {
          on: {
            'journey.changed': { target: 'journey', actions: ['clearPrices', assign({ error: null })] },
            // Priced again: the old prices go at once (none is ever shown for another journey).
            'journey.price': { target: 'pricing', actions: assign({ journey: ({ event }) => event.journey, error: null, offers: null, chosen: null }) },
            'vehicle.choose': {
              guard: { type: 'offered', params: ({ event }) => event },
              actions: assign({ chosen: ({ context, event }) => context.offers!.find((o) => isOffer(o, event))!, error: null }),
            },
            book: { guard: ({ context }) => context.chosen !== null, target: 'booking', actions: assign({ error: null }) },
          },
        },
        booking: {
          tags: 'busy',
          invoke: {
            src: 'takeBooking',
            input: ({ context, event }) => {
              if (event.type !== 'book') throw new Error('booking is entered by book');
              return { key: context.key, journey: context.journey!, vehicle: context.chosen!, details: event.details };
            },
            onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output }) },
            // Refused (a field, a price changed meanwhile): the form stays as typed, with the message on its field.
            onError: [SESSION_ENDED_HERE, { target: 'priced', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        // Taken: the reference, and the payment link when one was sent.
        done: {
          on: {
            again: {
              target: 'journey',
              actions: assign({ key: () => newIdempotencyKey(), journey: null, offers: null, chosen: null, result: null, error: null, found: null, searched: null }),
            },
          },
        },
      },
    },
    search: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'passenger.find': [
              { guard: { type: 'searchable', params: ({ event }) => event.q }, target: 'searching', actions: assign({ searched: ({ event }) => event.q.trim(), searchError: null }) },
              { actions: assign({ searchError: { message: PHONE_NOTICES.searchShort, field: 'q' } }) },
            ],
          },
        },
        searching: {
          invoke: {
            src: 'findPassengers',
            input: ({ context }) => ({ q: context.searched! }),
            onDone: { target: 'idle', actions: assign({ found: ({ event }) => event.output }) },
            onError: [SESSION_ENDED_HERE, { target: 'idle', actions: assign({ searchError: ({ event }) => asCallError(event.error), found: null }) }],
          },
        },
      },
    },
  },
});
