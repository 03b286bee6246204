// The manage page's machine with the browser's services: its calls (./manageApi.ts), the link's key as the tab keeps
// it (../../manageKeys.ts), and the card sub-machine paying a change's difference with the card page's own services
// (../../cardActors.ts), its intent and completion the change's; the driver's job followed live (../../liveEvents.ts).
import { fromCallback, fromPromise } from 'xstate';
import { manageMachine } from '../../../../machines/manage';
import { cardPaymentMachine, type CardCompletion, type CardOrder, type ChangeOrder, type LinkOrder } from '../../../../machines/cardPayment';
import { payLinkMachine } from '../../../../machines/payLink';
import { cardProviderActors } from '../../cardActors';
import { manageKeyFor, payKeyFor, rememberManageKey } from '../../manageKeys';
import { readSession } from '../../storage';
import * as calls from './manageApi';
import { openLive } from '../../liveEvents';
import type { LiveJob } from '../../../domain/tracking';

/** The manage page pays for changes only. */
function changeOf(order: CardOrder): ChangeOrder['change'] {
  if (!('change' in order)) throw new Error('The manage page pays for changes only.');
  return order.change;
}

const changePayment = cardPaymentMachine.provide({
  actors: {
    ...cardProviderActors,
    createIntent: fromPromise(async ({ input }: { input: { booking: CardOrder; paymentMethodId: string; amountPence: number } }) =>
      ({ paymentIntentId: (await calls.createChangeIntent(changeOf(input.booking), input.paymentMethodId)).paymentIntentId })),
    completeBooking: fromPromise(({ input }: { input: CardCompletion }) => calls.completeChange(changeOf(input), input.stripeSessionId ?? '')),
  },
});

/** A payment link's page pays its booking only (issue 43). */
function linkOf(order: CardOrder): LinkOrder['link'] {
  if (!('link' in order)) throw new Error('A payment link pays its own booking only.');
  return order.link;
}

const linkPayment = cardPaymentMachine.provide({
  actors: {
    ...cardProviderActors,
    createIntent: fromPromise(async ({ input }: { input: { booking: CardOrder; paymentMethodId: string; amountPence: number } }) =>
      ({ paymentIntentId: (await calls.createLinkIntent(linkOf(input.booking), input.paymentMethodId)).paymentIntentId })),
    completeBooking: fromPromise(({ input }: { input: CardCompletion }) => calls.completeLink(linkOf(input), input.stripeSessionId ?? '')),
  },
});

const payLink = payLinkMachine.provide({
  actors: {
    readPayKey: fromPromise(async ({ input }: { input: { reference: string } }) => payKeyFor(input.reference)),
    loadPayPage: fromPromise(({ input }: { input: { reference: string; key: string } }) => calls.loadPayPage(input)),
    cardPayment: linkPayment,
  },
});

export const liveManage = manageMachine.provide({
  actors: {
    // The link's key as this tab kept it; else, for a signed-in corporate passenger, a key for a booking of their account.
    readKey: fromPromise(async ({ input }: { input: { reference: string } }) => {
      const kept = manageKeyFor(input.reference);
      if (kept) return kept;
      const session = readSession();
      if (!session) return null;
      // Not theirs, or not answered: the machine shows how to get the link (as with no key).
      const key = await calls.keyOfAccount(input.reference, session.token);
      rememberManageKey(input.reference, key);
      return key;
    }),
    loadBooking: fromPromise(({ input }: { input: { reference: string; key: string } }) => calls.loadBooking(input)),
    saveChange: fromPromise(({ input }: { input: Parameters<typeof calls.saveChange>[0] }) => calls.saveChange(input)),
    cancelBooking: fromPromise(({ input }: { input: { reference: string; key: string } }) => calls.cancelBooking(input)),
    downloadReceipt: fromPromise(({ input }: { input: { reference: string; key: string } }) => calls.downloadReceipt(input)),
    findBooking: fromPromise(({ input }: { input: { reference: string; email: string } }) => calls.findBooking(input)),
    cardPayment: changePayment,
    payLink,
    // The driver's job as it moves (GET .../live), from the page's first load until the booking is left.
    followJob: fromCallback<{ type: 'follow.start'; key: string }, { reference: string }>(({ sendBack, receive, input }) => {
      let close: (() => void) | null = null;
      let following: string | null = null;
      receive((e) => {
        if (e.key === following) return;
        close?.();
        following = e.key;
        close = openLive(`/manage/${encodeURIComponent(input.reference)}/live`, {
          headers: { 'X-Manage-Key': e.key },
          onEvent: (event, data) => { if (event === 'job') sendBack({ type: 'job.live', job: data as LiveJob | null }); },
        });
      });
      return () => close?.();
    }),
  },
});
