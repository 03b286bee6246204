// Manage my booking (issue 27): a passenger's own booking through its link, and Find my booking. The app machine
// (./app.ts) spawns it when the area's code has loaded and hands it every location under /manage as `url.changed`;
// the address bar shows `context.location`. The link's key never shows there: the page keeps it in the tab's
// storage, and `readKey` finds it for the reference.
// booking: the key -> the booking -> viewing, from which the passenger edits (saving; a new price is confirmed
// first; a higher card price is paid through the card sub-machine, ./cardPayment.ts, whose completion applies the
// change once), cancels (confirmed first), or downloads the receipt. States waiting for an answer that decides the
// screen are tagged 'busy'. Its context, input and events are in ./manageTypes.
import { assign, type SnapshotFrom } from 'xstate';
import { locationOfScreen, pathWith, type ManageScreen } from '../src/domain/screens';
import { failure, output } from './shared';
import { MANAGE_NOTICES, manageSetup, payer, referenceOf } from './manageSetup';
import type { ChangeAnswer, PriceQuestion } from './manageTypes';

export type { CallError, ChangeAnswer, ManageContext, ManageEvent, ManageInput, ManagePage, PriceQuestion } from './manageTypes';
export { MANAGE_NOTICES } from './manageSetup';

export const manageMachine = manageSetup.createMachine({
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
      always: [{ guard: 'onFind', target: 'find' }, { guard: 'onPay', target: 'pay' }, { target: 'booking' }],
    },
    // A card payment link (issue 43, ./payLink.ts): its own machine, under its own address.
    pay: {
      entry: assign({ location: ({ context }) => ({ path: context.location.path, search: '' }) }),
      invoke: { id: 'payLink', src: 'payLink', input: ({ context }) => ({ location: context.location }) },
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
export const manageScreen = (s: ManageSnapshot): ManageScreen => (s.matches('find') ? 'manageFind' : s.matches('pay') ? 'payLink' : 'manageBooking');
