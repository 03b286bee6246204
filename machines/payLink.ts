// A card payment link's page (issue 43 §1): /pay/BK-...#key=..., sent to the passenger of a booking the office took by
// phone. The manage area (./manage.ts) runs it as its child while the page is open. The key (kept from the link by the
// page, never in the address bar) opens the booking; a booking waiting for its payment is paid through the card page's
// own sub-machine (./cardPayment.ts, 3-D Secure included), whose completion confirms the booking once; a link used
// again shows the booking paid, and an expired or cancelled one says so with the office's phone.
import { assign, setup } from 'xstate';
import type { BookingResult } from '../src/domain/schemas';
import type { LinkState } from '../src/domain/phoneBookings';
import { poundsToPence } from '../src/domain/money';
import { paramsOf, type Location } from '../src/domain/screens';
import { cardPaymentMachine } from './cardPayment';
import { errorText, output, provided } from './shared';

/** GET /api/v1/pay/{reference}: the booking as booked, the amount, and where the link stands. */
export interface PayPage {
  reference: string; state: LinkState; amount: string; expires_at: string; phone: string;
  /** The booking as booked, while it waits for its payment; null once paid, expired or cancelled. */
  trip: { pickup: string; dropoff: string | null; date: string; time: string; vehicle: string; company: string; passenger: string } | null;
}

export interface PayLinkInput { location: Location }
export interface PayLinkContext {
  reference: string;
  key: string | null;
  page: PayPage | null;
  /** The booking once paid, with its own "Manage your booking" key. */
  paid: BookingResult | null;
  error: string | null;
  /** The link is not valid (404): a page of its own. */
  invalid: boolean;
}
export type PayLinkEvent = { type: 'pay.start' } | { type: 'pay.close' } | { type: 'retry' };

const referenceOf = (path: string) => (paramsOf('payLink', path).reference ?? '').trim().toUpperCase();

export const payLinkMachine = setup({
  types: {
    context: {} as PayLinkContext,
    events: {} as PayLinkEvent,
    input: {} as PayLinkInput,
  },
  actors: {
    /** The link's key for this booking, as the page kept it from the link, or null. */
    readPayKey: provided<string | null, { reference: string }>('readPayKey'),
    loadPayPage: provided<PayPage, { reference: string; key: string }>('loadPayPage'),
    cardPayment: cardPaymentMachine,
  },
  guards: {
    hasKey: (_, key: string | null) => key !== null,
    awaiting: (_, page: PayPage) => page.state === 'awaiting',
    notFound: (_, { error }: { error: unknown }) => (error as { status?: number })?.status === 404,
  },
}).createMachine({
  id: 'payLink',
  context: ({ input }) => ({ reference: referenceOf(input.location.path), key: null, page: null, paid: null, error: null, invalid: false }),
  initial: 'keying',
  states: {
    keying: {
      invoke: {
        src: 'readPayKey',
        input: ({ context }) => ({ reference: context.reference }),
        onDone: [
          { guard: { type: 'hasKey', params: output }, target: 'loading', actions: assign({ key: ({ event }) => event.output }) },
          { target: 'closed', actions: assign({ invalid: true }) },
        ],
        onError: { target: 'closed', actions: assign({ invalid: true }) },
      },
    },
    loading: {
      tags: 'busy',
      invoke: {
        src: 'loadPayPage',
        input: ({ context }) => ({ reference: context.reference, key: context.key! }),
        onDone: [
          { guard: { type: 'awaiting', params: output }, target: 'ready', actions: assign({ page: ({ event }) => event.output, error: null }) },
          // Paid already, expired or cancelled: said so, with nothing to pay.
          { target: 'closed', actions: assign({ page: ({ event }) => event.output, error: null }) },
        ],
        onError: [
          { guard: { type: 'notFound', params: ({ event }) => ({ error: event.error }) }, target: 'closed', actions: assign({ invalid: true }) },
          { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
        ],
      },
    },
    failed: { on: { retry: 'loading' } },
    // The booking and its price, and Pay.
    ready: { on: { 'pay.start': 'paying' } },
    paying: {
      invoke: {
        id: 'cardPayment',
        src: 'cardPayment',
        input: ({ context }) => ({
          booking: { link: { reference: context.reference, key: context.key! }, payer: { name: context.page!.trip?.passenger ?? '', email: '' } },
          amountPence: poundsToPence(context.page!.amount), intentId: null,
        }),
        onDone: { target: 'paid', actions: assign({ paid: ({ event }) => event.output.booking }) },
      },
      // Back from the card form: the page as it stands now (paid meanwhile in another tab, or still waiting).
      on: { 'pay.close': 'loading' },
    },
    paid: {},
    closed: {},
  },
});
