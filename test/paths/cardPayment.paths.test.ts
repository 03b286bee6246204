// The card payment machine's generated paths in Chromium (./pathRunner.ts): SPEC 4 'Card payment' and SPEC 8's
// payment messages on the real card page, against the local test gateway (its Stripe.js stand-in, its API and
// Stripe's documented test cards: a declined card is declined by the gateway, a 3-D Secure card opens the bank's
// check). What the demo cannot give is asked of the server (a dropped call, an intent refused, a payment still
// processing) or of the card script (a Stripe.js call that throws: the page's copy of the script is wrapped).
import type { Page, Route } from 'playwright-core';
import { INTENT_FAILED, PAYMENT_FAILED, isCardTriesUsedUp } from '../../src/domain/messages';
import {
  authenticate, authOk, bookedNot, complete, confirm, DECLINED, declined, failedSilently, intent, key, model, needsAction,
  messageOf, NOT_AUTHENTICATED, paymentMethod, pmError, pmFieldError, pmOk, processing, successDialogCloses, TRIES_USED_UP,
  type Answer, type succeeded,
} from '../machine/models/cardPayment';
import type { ModelEvent } from '../machine/modelPaths';
import { cardBookingOk } from '../machine/fixtures';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, type Expected, type Seen } from './screens';
import { openAsReturningVisitor } from './storage';
import { realStorage } from './visit';
import { everyStep } from '../machine/models/booking';
import { CARDS, pay, typeCard } from './cardSteps';

const API = '/api/v1';
const CONNECTION = 'We could not reach the payment service. Please check your connection and try again.';
const BOOKING_SERVER = 'We could not reach the booking server. Please check your connection and try again.';

const same = (e: ModelEvent | undefined, answer: { type: string; output?: unknown; error?: unknown }) =>
  !!e && e.type === answer.type && JSON.stringify((e as Answer).output) === JSON.stringify(answer.output)
  && ((e as Answer).error as Error | undefined)?.message === (answer.error as Error | undefined)?.message;
const isDone = (e: ModelEvent | undefined, service: { done: (o?: unknown) => { type: string } }) => e?.type === service.done().type;
const isFail = (e: ModelEvent | undefined, service: { fails: (x: unknown) => { type: string } }) => e?.type === service.fails(null).type;

/**
 * The page's card script, with a switch to make a Stripe.js call throw (window.__cardScriptFails names the call and
 * the message): Stripe.js can reject on its own (a script that failed to load, a closed window).
 */
async function wrapCardScript(page: Page) {
  await page.route('**/test-gateway/stripe.js', async (route) => {
    // A path can end while the script is on its way (the page is closed): nothing is left to answer then.
    await wrapped(route).catch(() => route.abort().catch(() => {}));
  });
}

/** The gateway's script, with every Stripe it makes wrapped. */
const WRAP = `;(() => {
  const made = window.Stripe;
  window.Stripe = function (...args) {
    const stripe = made(...args);
    for (const name of ['createPaymentMethod', 'handleCardAction']) {
      const real = stripe[name].bind(stripe);
      stripe[name] = (...a) => {
        const fail = (window.__cardScriptFails || {})[name];
        return fail ? Promise.reject(new Error(fail)) : real(...a);
      };
    }
    return stripe;
  };
  Object.assign(window.Stripe, made);
})();`;

async function wrapped(route: Route) {
  const response = await route.fetch();
  await route.fulfill({ response, body: (await response.text()) + WRAP });
}

/** Makes the card script's call throw, on this page and on the page loaded next. */
async function scriptFails(p: PathPage, name: string, message: string) {
  const set = ([n, m]: string[]) => {
    const w = window as unknown as { __cardScriptFails?: Record<string, string> };
    w.__cardScriptFails = { ...w.__cardScriptFails, [n]: m };
  };
  await p.page.addInitScript(set, [name, message]);
  await p.page.evaluate(set, [name, message]);
}

/** What the confirm call must answer that the gateway's cards do not give by themselves: asked of the server. */
async function confirmAnswered(p: PathPage, e: ModelEvent) {
  const path = `${API}/confirm-payment-intent`;
  if (isFail(e, confirm)) return p.server.fault({ method: 'POST', path, kind: 'drop' });
  const r = (e as Answer).output as typeof succeeded;
  if (r.status === 'succeeded') return undefined;
  return p.server.fault({ method: 'POST', path, kind: 'answer', body: { ...r, message: undefined, sessionId: 'pi_fromTheServer' } });
}

/**
 * Arranges the answers that follow a person's act, up to the bank's check (its buttons arrange what follows them);
 * returns the card to pay with.
 */
async function arrange(p: PathPage, then: ModelEvent[]): Promise<{ number: string; expiry?: string }> {
  let number: string = CARDS.approved;
  let expiry: string | undefined;
  let confirms = 0;
  for (const e of then) {
    if (isFail(e, key)) await p.server.fault({ method: 'GET', path: `${API}/secret_key`, kind: 'drop' });
    if (same(e, paymentMethod.done(pmFieldError))) expiry = '1220';
    if (same(e, paymentMethod.done(pmError))) await p.server.fault({ method: 'POST', path: '/test-gateway/v1/payment_methods', kind: 'drop' });
    if (isFail(e, paymentMethod)) await scriptFails(p, 'createPaymentMethod', ((e as Answer).error as Error).message);
    if (isFail(e, intent)) {
      const message = ((e as Answer).error as Error).message;
      await p.server.fault({ method: 'POST', path: `${API}/create-payment-intent`, kind: 'status', status: isCardTriesUsedUp(message) ? 429 : 422, message });
    }
    if (isDone(e, confirm) || isFail(e, confirm)) {
      confirms++;
      // The first answer after paying is the card's own: approved, declined, or the bank's check asked for.
      if (confirms === 1 && same(e, confirm.done(needsAction))) number = CARDS.authenticates;
      else if (confirms === 1 && same(e, confirm.done(declined))) number = CARDS.declined;
      else await confirmAnswered(p, e);
    }
    if (isFail(e, authenticate)) await scriptFails(p, 'handleCardAction', ((e as Answer).error as Error).message);
    if (isDone(e, authenticate) || isFail(e, authenticate)) break;
    if (same(e, complete.done(bookedNot))) {
      await p.server.fault({ method: 'POST', path: `${API}/booking`, kind: 'status', status: 200, message: bookedNot.message });
    }
    if (isFail(e, complete)) await p.server.fault({ method: 'POST', path: `${API}/booking`, kind: 'drop' });
  }
  return { number, expiry };
}

/** The bank's check (the gateway's 3-D Secure window): approved or refused, then what follows is arranged. */
async function bankCheck(p: PathPage, then: ModelEvent[], button: 'Complete authentication' | 'Fail authentication') {
  const check = p.page.getByRole('dialog', { name: '3D Secure authentication' });
  await check.waitFor();
  for (const e of then) {
    if (isDone(e, confirm) || isFail(e, confirm)) await confirmAnswered(p, e);
    if (same(e, complete.done(bookedNot))) {
      await p.server.fault({ method: 'POST', path: `${API}/booking`, kind: 'status', status: 200, message: bookedNot.message });
    }
    if (isFail(e, complete)) await p.server.fault({ method: 'POST', path: `${API}/booking`, kind: 'drop' });
  }
  await check.getByRole('button', { name: button }).click();
}

/** The card page opened from a stored booking; on a reload, after an earlier visit made an intent. */
async function openCardPage(p: PathPage, reload: boolean, then: ModelEvent[]) {
  await wrapCardScript(p.page);
  await p.server.setting('SHOWCARD', 'yes');
  const stored = await realStorage(p, everyStep);
  if (!reload) await arrange(p, then);
  await openAsReturningVisitor(p, '/stripecheckout', { stored });
  if (reload) {
    // The earlier visit: the card was sent and the intent made, then the page was left before the answer came
    // (the confirm call dropped); a declined card was declined there and then.
    const resumed = then.find((e) => isDone(e, confirm) || isFail(e, confirm));
    const number = same(resumed, confirm.done(needsAction)) ? CARDS.authenticates : same(resumed, confirm.done(declined)) ? CARDS.declined : CARDS.approved;
    if (number !== CARDS.declined) await p.server.fault({ method: 'POST', path: `${API}/confirm-payment-intent`, kind: 'drop' });
    await typeCard(p, number);
    await pay(p);
    await p.dialog(PAYMENT_FAILED);
    await p.server.clearFaults();
    await arrange(p, then);
    await p.typeUrl('/stripecheckout');
  }
}

type CardExpected = Expected & {
  /** The page was opened again after an intent was made: it asks about that intent before anything else. */
  reload?: boolean;
  /** The intent's state is being asked on a reload: an unpaid one asks for the card again, without a dialog. */
  resuming?: boolean;
};
const cardForm = (more: Partial<Seen> = {}): CardExpected => ({ screen: 'cardForm', ...more });
const paymentFailed = (text: string) => cardForm({ dialog: { title: PAYMENT_FAILED, texts: [text] } });
const waits = (service: string, more: Partial<CardExpected> = {}): CardExpected => ({ waiting: service, ...more });
/** The service an answer is from (the name the card page invokes it by). */
const answerFrom = (e: ModelEvent) => /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type)?.[1];

/**
 * SPEC 4 'Card payment' and SPEC 8's payment messages, by what the person did and what came back: the card page's
 * screen after each event, written apart from machines/cardPayment.ts. The dialog's words are the page's for the
 * answer the path arranged (a dropped call reads as a connection failure).
 */
const cardOracle: PathOracle<unknown, CardExpected> = {
  calls: {
    loadCardKey: { method: 'GET', path: `${API}/secret_key` },
    createIntent: { method: 'POST', path: `${API}/create-payment-intent` },
    confirmIntent: { method: 'POST', path: `${API}/confirm-payment-intent` },
    completeBooking: { method: 'POST', path: `${API}/booking` },
  },
  opens: (inputName) => waits('loadCardKey', { reload: inputName === 'a reload after an intent was made' }),
  after(before, e) {
    const service = answerFrom(e);
    if (service !== undefined) {
      // An answer comes only to the page that waits for it.
      if (!isWaiting(before) || before.waiting !== service) return undefined;
      if (isDone(e, key)) return before.reload ? waits('confirmIntent', { resuming: true }) : cardForm();
      if (isFail(e, key)) return { screen: 'cardUnavailable' };
      if (same(e, paymentMethod.done(pmOk))) return waits('createIntent');
      // The card form's refusal of a field stays under that field; no dialog.
      if (same(e, paymentMethod.done(pmFieldError))) return cardForm({ texts: ["Your card's expiration year is in the past."] });
      if (same(e, paymentMethod.done(pmError))) return paymentFailed(CONNECTION);
      if (isFail(e, paymentMethod)) return paymentFailed(messageOf(e));
      if (isDone(e, intent)) return waits('confirmIntent');
      if (isFail(e, intent)) return paymentFailed(isCardTriesUsedUp(messageOf(e)) ? TRIES_USED_UP : INTENT_FAILED);
      if (isDone(e, confirm) || isFail(e, confirm)) {
        const status = isDone(e, confirm) ? (e as Answer & { output: { status: string } }).output.status : null;
        if (status === 'succeeded') return waits('completeBooking');
        if (status === 'requires_action') return waits('authenticate');
        // Not paid, found on a reload: the card is asked for again, without a dialog.
        if (before.resuming) return cardForm();
        if (isFail(e, confirm)) return paymentFailed(BOOKING_SERVER);
        if (same(e, confirm.done(declined))) return paymentFailed(DECLINED);
        if (same(e, confirm.done(processing))) return paymentFailed((processing as { error: string }).error);
        // SPEC 8: a refusal without the provider's words.
        if (same(e, confirm.done(failedSilently))) return paymentFailed(INTENT_FAILED);
        return undefined;
      }
      if (same(e, authenticate.done(authOk))) return waits('confirmIntent');
      if (isDone(e, authenticate)) return paymentFailed(NOT_AUTHENTICATED);
      if (isFail(e, authenticate)) return paymentFailed(messageOf(e));
      // 'Payment successful!' shows for 1.5 s; the money taken without the booking written is never 'Payment failed'.
      if (same(e, complete.done(cardBookingOk))) return waits('the success dialog to close');
      if (same(e, complete.done(bookedNot))) return { screen: 'cardPaidNotConfirmed', texts: [bookedNot.message] };
      if (isDone(e, complete) || isFail(e, complete)) return { screen: 'cardPaidNotConfirmed' };
      return undefined;
    }
    if (e.type === successDialogCloses.type) return isWaiting(before) && before.waiting === 'the success dialog to close' ? { screen: 'bookingConfirmed' } : undefined;
    if (isWaiting(before)) return undefined;
    const onForm = before.screen === 'cardForm';
    if (e.type === 'card.submitted' && onForm && !before.dialog) return waits('createPaymentMethod');
    // 'Try again' in the dialog closes it: the card as typed, to correct or pay again.
    if (e.type === 'error.dismissed' && onForm && before.dialog) return cardForm();
    // 'Try again' on the page: the card service asked again, or the booking of a payment already taken (never the
    // card again: it would be charged twice).
    if (e.type === 'card.retry' && before.screen === 'cardUnavailable') return waits('loadCardKey');
    if (e.type === 'card.retry' && before.screen === 'cardPaidNotConfirmed') return waits('completeBooking');
    return undefined;
  },
};

const wait = async () => {};

browserPaths({
  model,
  // Issue 44's wallet: the provider's own sheet gives the payment method (the test gateway's stand-in in Chromium):
  // driven by e2e/card-payment "paying with a wallet" (it books once, a cancelled wallet leaves the card, none offered
  // shows none); the model test takes every one of its transitions.
  outsideThePage: ['card.walletPaid', 'card.walletFailed'],
  open: (p, inputName, _input, { then }) => openCardPage(p, inputName === 'a reload after an intent was made', then),
  acts: {
    'card.submitted': async (p, { then }) => {
      const { number, expiry } = await arrange(p, then);
      await typeCard(p, number, expiry);
      await pay(p);
    },
    'card.retry': async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByRole('button', { name: 'Try again' }).click();
    },
    'error.dismissed': (p) => p.closeDialog('Try again'),
    'authenticate done (authenticated)': (p, { then }) => bankCheck(p, then, 'Complete authentication'),
    [`authenticate done (not authenticated: ${NOT_AUTHENTICATED})`]: (p, { then }) => bankCheck(p, then, 'Fail authentication'),
    '1500 ms later': wait,
  },
  oracle: cardOracle,
});
