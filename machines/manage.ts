// Manage my booking (issue 27): a passenger's own booking through its link, and Find my booking. The app machine
// (./app.ts) spawns it when the area's code has loaded and hands it every location under /manage as `url.changed`;
// the address bar shows `context.location`. The link's key never shows there: the page keeps it in the tab's
// storage, and `readKey` finds it for the reference.
// booking: the key -> the booking -> viewing, from which the passenger edits (saving; a new price is confirmed
// first; a higher card price is paid through the card sub-machine, ./cardPayment.ts, whose completion applies the
// change once), cancels (confirmed first), or downloads the receipt. States waiting for an answer that decides the
// screen are tagged 'busy'. Its context, input and events are in ./manageTypes.
import { assign, fromCallback, sendTo, setup, type SnapshotFrom } from 'xstate';
import type { ChangeErrors, ChangeValues } from '../src/domain/manageChanges';
import { locationOfScreen, paramsOf, pathWith, screenOfPath, type ManageScreen } from '../src/domain/screens';
import { cardPaymentMachine, type BillingDetails } from './cardPayment';
import { errorText, failure, output, provided } from './shared';
import type { CallError, ChangeAnswer, ManageContext, ManageEvent, ManageInput, ManagePage, PriceQuestion } from './manageTypes';

export type { CallError, ChangeAnswer, ManageContext, ManageEvent, ManageInput, ManagePage, PriceQuestion } from './manageTypes';

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

const referenceOf = (path: string) => (paramsOf('manageBooking', path).reference ?? '').toUpperCase();
const payer = (page: ManagePage): BillingDetails => ({
  name: page.booking.passengerDetails.passenger_name, email: page.booking.passengerDetails.passenger_email,
});

export const manageMachine = setup({
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
}).createMachine({
  id: 'manage',
  context: ({ input }) => ({
    location: input.location, reference: null, key: null, page: null, draft: null, acceptTotal: null, question: null, payment: null,
    error: null, fieldErrors: {}, notice: null, findSent: null,
  }),
  initial: 'routing',
  on: {
    'url.changed': { target: '.routing', actions: ['takeLocation', 'clearMessages'] },
  },
  states: {
    routing: {
      always: [{ guard: 'onFind', target: 'find' }, { target: 'booking' }],
    },
    // Find my booking: the reference and the e-mail; the answer is the same whether or not they match.
    find: {
      entry: assign({ location: () => locationOfScreen('manageFind'), findSent: null }),
      initial: 'editing',
      states: {
        editing: {
          on: { 'find.submit': { target: 'sending', actions: 'clearMessages' } },
        },
        sending: {
          tags: 'busy',
          invoke: {
            src: 'findBooking',
            input: ({ event }) => (event.type === 'find.submit' ? { reference: event.reference, email: event.email } : { reference: '', email: '' }),
            onDone: { target: 'sent', actions: assign({ findSent: ({ event }) => event.output }) },
            onError: { target: 'editing', actions: { type: 'showChangeError', params: failure } },
          },
        },
        sent: {
          on: { 'find.again': { target: 'editing', actions: assign({ findSent: null }) } },
        },
      },
    },
    booking: {
      entry: assign(({ context }) => {
        const reference = referenceOf(context.location.path);
        return {
          reference, page: null, key: null, draft: null, question: null, payment: null,
          location: { path: pathWith('manageBooking', { reference }), search: '' },
        };
      }),
      invoke: { id: 'followJob', src: 'followJob', input: ({ context }) => ({ reference: context.reference! }) },
      on: { 'job.live': { actions: 'takeJob' } },
      initial: 'keying',
      states: {
        keying: {
          invoke: {
            src: 'readKey',
            input: ({ context }) => ({ reference: context.reference! }),
            onDone: [
              { guard: { type: 'hasKey', params: output }, target: 'loading', actions: assign({ key: ({ event }) => event.output }) },
              { target: 'noKey' },
            ],
            onError: { target: 'noKey' },
          },
        },
        // No link for this booking in this tab: the page says how to get one (the e-mail, or Find my booking).
        noKey: {},
        loading: {
          tags: 'busy',
          invoke: {
            src: 'loadBooking',
            input: ({ context }) => ({ reference: context.reference!, key: context.key! }),
            onDone: { target: 'viewing', actions: [{ type: 'assignPage', params: output }, 'follow'] },
            onError: { target: 'failed', actions: { type: 'showError', params: failure } },
          },
        },
        // A wrong or expired link (404, 410) has a page of its own; anything else can be tried again.
        failed: {
          on: { retry: { target: 'loading', actions: 'clearMessages' } },
        },
        viewing: {
          on: {
            'edit.open': { guard: 'mayChange', target: 'editing', actions: ['clearMessages', assign({ draft: null })] },
            'cancel.open': { guard: 'mayCancel', target: 'confirmingCancel', actions: 'clearMessages' },
            'payment.start': {
              guard: 'changeWaits',
              target: 'paying',
              actions: ['clearMessages', assign({
                payment: ({ context }) => {
                  const w = context.page!.manage.waiting_change!;
                  return { changeId: w.id, amountPence: w.amount_pence, newTotal: w.new_total };
                },
              })],
            },
            'receipt.download': { target: 'downloading', actions: 'clearMessages' },
            'job.live': { guard: 'bookingMoved', target: 'loading', actions: 'takeJob' },
          },
        },
        editing: {
          on: {
            'change.submit': { target: 'saving', actions: ['clearMessages', assign({ draft: ({ event }) => event.values, acceptTotal: null })] },
            'edit.close': { target: 'viewing', actions: ['clearMessages', assign({ draft: null })] },
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            src: 'saveChange',
            input: ({ context }) => ({ reference: context.reference!, key: context.key!, values: context.draft!, acceptTotal: context.acceptTotal }),
            onDone: [
              {
                guard: { type: 'saved', params: output },
                target: 'viewing',
                actions: assign(({ event }) => {
                  const a = event.output as Extract<ChangeAnswer, { status: 'saved' }>;
                  return {
                    page: { booking: a.booking, manage: a.manage }, draft: null, acceptTotal: null, question: null,
                    notice: a.refund ? MANAGE_NOTICES.savedRefund : MANAGE_NOTICES.saved,
                  };
                }),
              },
              { guard: { type: 'askPrice', params: output }, target: 'confirmingPrice', actions: assign({ question: ({ event }) => event.output as PriceQuestion }) },
              {
                target: 'paying',
                actions: assign(({ event }) => {
                  const a = event.output as Extract<ChangeAnswer, { status: 'payment_required' }>;
                  return { payment: { changeId: a.change_id, amountPence: a.amount_pence, newTotal: a.new_total }, question: null };
                }),
              },
            ],
            onError: { target: 'editing', actions: { type: 'showChangeError', params: failure } },
          },
        },
        // The new price, before anything is saved: to pay, to be refunded, or to pay in the car.
        confirmingPrice: {
          on: {
            'price.accept': { target: 'saving', actions: assign({ acceptTotal: ({ context }) => context.question!.new_total }) },
            'price.decline': { target: 'editing', actions: assign({ question: null, acceptTotal: null }) },
          },
        },
        // The difference, by card: the card page's sub-states; done once the change is applied.
        paying: {
          invoke: {
            id: 'cardPayment',
            src: 'cardPayment',
            input: ({ context }) => ({
              booking: { change: { reference: context.reference!, key: context.key!, id: context.payment!.changeId }, payer: payer(context.page!) },
              amountPence: context.payment!.amountPence, intentId: null,
            }),
            onDone: { target: 'loading', actions: assign({ payment: null, draft: null, notice: MANAGE_NOTICES.paid }) },
          },
          on: { 'payment.close': { target: 'loading', actions: assign({ payment: null }) } },
        },
        confirmingCancel: {
          on: {
            'cancel.confirm': { target: 'cancelling' },
            'cancel.close': { target: 'viewing' },
          },
        },
        cancelling: {
          tags: 'busy',
          invoke: {
            src: 'cancelBooking',
            input: ({ context }) => ({ reference: context.reference!, key: context.key! }),
            onDone: { target: 'viewing', actions: [{ type: 'assignPage', params: output }, assign({ notice: MANAGE_NOTICES.cancelled })] },
            onError: { target: 'viewing', actions: { type: 'showError', params: failure } },
          },
        },
        downloading: {
          invoke: {
            src: 'downloadReceipt',
            input: ({ context }) => ({ reference: context.reference!, key: context.key! }),
            onDone: { target: 'viewing', actions: assign({ notice: MANAGE_NOTICES.receipt }) },
            onError: { target: 'viewing', actions: { type: 'showError', params: failure } },
          },
        },
      },
    },
  },
});

export type ManageSnapshot = SnapshotFrom<typeof manageMachine>;

/** The screen the machine shows. */
export const manageScreen = (s: ManageSnapshot): ManageScreen => (s.matches('find') ? 'manageFind' : 'manageBooking');
