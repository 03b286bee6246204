// The card sub-machine's services that work with the card provider in the page (Stripe.js, the card form, the bank's
// check, the confirm call), shared by the card page (./liveApp.ts) and a booking's manage page (views/manage): each
// adds what is paid for, its own createIntent and completeBooking. The card code loads with the first card form.
import { fromPromise } from 'xstate';
import type { BillingDetails } from '../../machines/cardPayment';
import type { CardKeyResponse } from '../domain/cardSchemas';

export const loadCardProvider = () => import('./cardProvider');

export const cardProviderActors = {
  loadCardKey: fromPromise<CardKeyResponse, void>(async () => {
    const provider = await loadCardProvider();
    const key = await provider.fetchCardKey();
    await provider.stripeFor(key);
    return key;
  }),
  createPaymentMethod: fromPromise(async ({ input }: { input: BillingDetails }) => (await loadCardProvider()).createPaymentMethod(input)),
  confirmIntent: fromPromise(async ({ input }: { input: { intentId: string } }) => (await loadCardProvider()).confirmIntent(input)),
  authenticate: fromPromise(async ({ input }: { input: { clientSecret: string } }) => (await loadCardProvider()).authenticate(input)),
};
