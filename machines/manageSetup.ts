// Manage my booking's setup (./manage.ts builds its machine on it): the named services, actions and guards, and what
// the page says once a step is done. Its context, input and events are in ./manageTypes.
import { assign, fromCallback, sendTo, setup } from 'xstate';
import type { ChangeErrors, ChangeValues } from '../src/domain/manageChanges';
import { paramsOf, screenOfPath } from '../src/domain/screens';
import { cardPaymentMachine, type BillingDetails } from './cardPayment';
import { payLinkMachine } from './payLink';
import { errorText, provided } from './shared';
import type { CallError, ChangeAnswer, ManageContext, ManageEvent, ManageInput, ManagePage } from './manageTypes';

export const MANAGE_NOTICES = {
  saved: 'Your change is saved. We have e-mailed you and told our office.',
  savedRefund: 'Your change is saved and the difference is being refunded to your card. We have e-mailed you and told our office.',
  paid: 'Your change is saved and the difference is paid. We have e-mailed you and told our office.',
  cancelled: 'Your booking is cancelled and our office has been told.',
  receipt: 'Your receipt has been downloaded.',
} as const;

/** A call's refusal, with what the API said of it. */
const callError = (error: unknown): CallError => {
  const e = error as Partial<CallError>;
  return { message: errorText(error), ...(e?.field ? { field: e.field } : {}), ...(e?.status ? { status: e.status } : {}) };
};

export const referenceOf = (path: string) => (paramsOf('manageBooking', path).reference ?? '').toUpperCase();
export const payer = (page: ManagePage): BillingDetails => ({
  name: page.booking.passengerDetails.passenger_name, email: page.booking.passengerDetails.passenger_email,
});

export const manageSetup = setup({
  types: {
    context: {} as ManageContext,
    events: {} as ManageEvent,
    input: {} as ManageInput,
  },
  actors: {
    /** The link's key for this booking, as the page kept it from the link (or from /bookings), or null. */
    readKey: provided<string | null, { reference: string }>('readKey'),
    loadBooking: provided<ManagePage, { reference: string; key: string }>('loadBooking'),
    saveChange: provided<ChangeAnswer, { reference: string; key: string; values: ChangeValues; acceptTotal: string | null }>('saveChange'),
    cancelBooking: provided<ManagePage, { reference: string; key: string }>('cancelBooking'),
    downloadReceipt: provided<void, { reference: string; key: string }>('downloadReceipt'),
    findBooking: provided<string, { reference: string; email: string }>('findBooking'),
    /**
     * While a booking is open: told `follow.start` { key } once its page has loaded, it follows the driver's job (GET
     * .../live) and sends `job.live` at each change (provided by the page; tests send it themselves).
     */
    followJob: fromCallback<{ type: 'follow.start'; key: string }, { reference: string }>(() => () => {}),
    cardPayment: cardPaymentMachine,
    /** A card payment link's page (issue 43). */
    payLink: payLinkMachine,
  },
  actions: {
    takeLocation: assign(({ event }) => (event.type === 'url.changed' ? { location: { path: event.path, search: event.search } } : {})),
    clearMessages: assign({ error: null, fieldErrors: {}, notice: null }),
    showError: assign((_, { error }: { error: unknown }) => ({ error: callError(error) })),
    /** A refusal of the change form: under its field when it names one, else above the form. */
    showChangeError: assign((_, { error }: { error: unknown }) => {
      const e = callError(error);
      return e.field ? { fieldErrors: { [e.field]: e.message } as ChangeErrors, error: null } : { error: e, fieldErrors: {} };
    }),
    assignPage: assign((_, page: ManagePage) => ({ page })),
    /** The page as loaded: its job is followed from now, with this link's key. */
    follow: sendTo('followJob', ({ context }) => ({ type: 'follow.start' as const, key: context.key! })),
    takeJob: assign(({ context, event }) => (event.type === 'job.live' && context.page
      ? { page: { ...context.page, manage: { ...context.page.manage, job: event.job } } } : {})),
  },
  guards: {
    onFind: ({ context }) => screenOfPath(context.location.path) === 'manageFind',
    onPay: ({ context }) => screenOfPath(context.location.path) === 'payLink',
    hasKey: (_, key: string | null) => key !== null,
    mayChange: ({ context }) => context.page?.manage.may.change === true,
    mayCancel: ({ context }) => context.page?.manage.may.cancel === true,
    changeWaits: ({ context }) => context.page?.manage.waiting_change != null && context.page.manage.may.change,
    saved: (_, a: ChangeAnswer) => a.status === 'saved',
    askPrice: (_, a: ChangeAnswer) => a.status === 'confirm_price',
    /**
     * The booking itself moved on (the office cancelled it or gave it another driver, the driver finished it): what the
     * page says of it (the driver's mobile, the buttons, the receipt) is loaded again.
     */
    bookingMoved: ({ context, event }) => {
      const was = context.page?.manage.job;
      if (event.type !== 'job.live' || !event.job || !was) return false;
      const now = event.job;
      // Issue 42: the flight moved the pickup or said something new (the page shows both beside the time booked).
      return now.booking_status !== was.booking_status || now.driver?.name !== was.driver?.name || now.driver?.registration !== was.driver?.registration
        || JSON.stringify(now.flight ?? null) !== JSON.stringify(was.flight ?? null);
    },
  },
});
