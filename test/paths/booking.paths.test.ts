// The booking wizard's generated paths in Chromium (./pathRunner.ts): SPEC 2's steps and guards, SPEC 4's calls and
// SPEC 8's messages on the real page. Each model input is a visit opened with real data (prices, an account, a
// booking made through the API, the operator's settings switched); the answers are the real server's, and its
// failures are asked of it: a dropped call, a refusal with its message, or a slow answer the person acts during.
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { availableBookingTypes, bookingMachine, type BookingInput, type StoredBooking } from '../../machines/booking';
import { pathOf } from '../../machines/bookingLocation';
import { hour24To12 } from '../../src/domain/ukTime';
import { allowsGuests, showsCard, showsPayInCar } from '../../src/domain/settings';
import { CAPACITY_EXCEEDED_PREFIX } from '../../src/domain/priceFiltering';
import { ACCOUNT_EXISTS, EMAIL_CHECK_FAILED_PREFIX, EMAIL_NOT_FOUND, PASSWORD_RESET_DONE, PAYMENT_FAILED, QUOTE_SENT, SAME_PLACE } from '../../src/domain/messages';
import type { BookingResponse } from '../../src/domain/schemas';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { AddressError } from '../../src/domain/places';
import { model } from '../machine/models/booking';
import { registration } from '../machine/fixtures';
import type { ModelEvent, Trail } from '../machine/modelPaths';
import { ukDateInDays } from '../e2e/harness';
import { browserPaths, type PathPage } from './pathRunner';
import { openAsReturningVisitor } from './storage';
import { newAccount, signIn, trip, uniqueEmail } from './data';
import { realStorage } from './visit';
import { mailedCode, requestCode, setPassword, verifyCode } from './forgotSteps';
import { CARDS, payWith } from './cardSteps';

type S = SnapshotFrom<typeof bookingMachine>;
type Answer = { ok: boolean; output?: any; error?: Error };

const answerOf = (e: ModelEvent | undefined): Answer | null => {
  const m = e && /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
  if (!m) return null;
  return m[1] === 'done' ? { ok: true, output: (e as { output: unknown }).output } : { ok: false, error: (e as { error: Error }).error };
};
const HOME_PATHS = ['/', '/home', '/booktripview'];
const GRACE_PERIOD = 'Pickup time is within the grace period';

// --- Opening a visit ----------------------------------------------------------------------------------------------

async function openVisit(p: PathPage, input: BookingInput, next: ModelEvent | undefined) {
  const { settings } = input;
  if (availableBookingTypes(settings).includes('hourly')) await p.server.setting('HOURLY_RATE_STATUS', 'enable');
  if (!showsCard(settings)) await p.server.setting('SHOWCARD', 'no');
  if (!allowsGuests(settings)) await p.server.setting('GUEST_LOGIN', 'disable');
  if (!showsPayInCar(settings)) await p.server.setting('SHOWPAYINCAR', 'no');
  const session = input.session ? await signIn(p.server, DEMO_CORPORATE.email, DEMO_CORPORATE.password) : null;
  const stored = await realStorage(p, input.stored ?? {});
  if (input.path === '/' && !input.session && !Object.keys(input.stored ?? {}).length) {
    await p.typeUrl('/');
  } else {
    await openAsReturningVisitor(p, input.path, { stored, session });
  }
  // A reload of the card page: the first visit made a payment intent (the bank declined its card), then the page is
  // loaded again.
  if (input.stored?.attempt) {
    await payWith(p, CARDS.declined);
    await p.dialog(PAYMENT_FAILED);
    await p.typeUrl(input.path);
  }
  void next;
}

// --- What a person does ------------------------------------------------------------------------------------------

async function chooseAddress(p: PathPage, label: string, typed: string) {
  await p.page.getByRole('combobox', { name: label }).fill(typed);
  await p.page.getByRole('listbox').getByRole('option').first().click();
}

/** Now plus `minutes` in the UK, on the 5-minute grid (rounded down): the date, the hour as SPEC stores it, the minute. */
function ukSoon(minutes: number) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() + minutes * 60_000)).map((x) => [x.type, x.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`, hour: hour24To12(Number(parts.hour)),
    min: String(Math.floor(Number(parts.minute) / 5) * 5).padStart(2, '0'),
  };
}

/** The price calls, distance and hourly, that a path holds while the person acts (`heldCalls` below). */
const PRICE_CALLS = [
  { method: 'POST', path: '/api/v1/calculate-distance-price' },
  { method: 'POST', path: '/api/v1/calculate-hourly-price' },
];

/** The quote form, filled for the answer the path needs next (SPEC 4 'Price calculation'). */
async function submitDistanceForm(p: PathPage, next: ModelEvent | undefined) {
  const { page } = p;
  const answer = answerOf(next);
  const message = answer?.error?.message ?? '';
  if (answer?.error instanceof AddressError && message === SAME_PLACE) {
    // One airport written two ways: only the server knows they are the same place.
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Heathrow (LHR)');
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill('Heathrow Airport');
    await page.keyboard.press('Escape');
  } else {
    await chooseAddress(p, 'Pickup address', 'Paddington');
    await chooseAddress(p, 'Drop-off address', 'Canary Wharf');
  }
  await pickupWhen(p, message);
  if (message.startsWith("Sorry we don't have any vehicle")) await page.getByLabel('Passengers', { exact: true }).selectOption('20');
  // The person acts while the prices are on their way: the server holds the call until the path's answer step.
  if (next && !answer) await p.server.fault({ ...PRICE_CALLS[0], kind: 'delay', ms: 30_000 });
  await page.getByRole('button', { name: 'Get prices' }).click();
}

/** The pickup in 4 days, or in half an hour when the path needs the urgent notice. */
async function pickupWhen(p: PathPage, message: string) {
  const { page } = p;
  if (message === GRACE_PERIOD) {
    const soon = ukSoon(30);
    await page.getByLabel('Pickup date').fill(soon.date);
    await page.getByLabel('Pickup time hour').selectOption(soon.hour);
    await page.getByLabel('Pickup time minute').selectOption(soon.min);
  } else {
    await page.getByLabel('Pickup date').fill(ukDateInDays(4));
  }
}

async function submitHourlyForm(p: PathPage, next: ModelEvent | undefined) {
  await chooseAddress(p, 'Pickup address', 'Paddington');
  await pickupWhen(p, answerOf(next)?.error?.message ?? '');
  if (next && !answerOf(next)) await p.server.fault({ ...PRICE_CALLS[1], kind: 'delay', ms: 30_000 });
  await p.page.getByRole('button', { name: 'Get prices' }).click();
}

/** The details form for a mode, with the e-mail and password the next answer needs (SPEC 4 'Personal details'). */
async function submitDetails(p: PathPage, mode: 'guest_login' | 'new_client' | 'existing_client', next: ModelEvent | undefined) {
  const { page } = p;
  const answer = answerOf(next);
  const found = answer?.ok && answer.output?.found;
  if (found && !p.data.account) p.data.account = await newAccount(p.server);
  if (answer && !answer.ok) await p.server.fault({ method: 'POST', path: '/api/v1/check-passenger-email', kind: 'drop' });
  const label = { guest_login: 'Guest', new_client: 'New client', existing_client: 'Existing client' }[mode];
  const radio = page.getByRole('radio', { name: new RegExp(`^${label}`) });
  if (await radio.isVisible()) await radio.check();
  const email = found ? p.data.account.email : uniqueEmail(mode);
  if (mode !== 'existing_client') {
    await page.getByLabel('First Name').fill(registration.firstName);
    await page.getByLabel('Last Name').fill(registration.surname);
    await page.getByLabel('Phone Number').fill('07700 900123');
  }
  await page.getByLabel('Email').fill(email);
  if (mode !== 'guest_login') {
    // A found client types the account's password, unless the path needs it refused.
    const wrong = answer?.ok && answer.output?.success === false && answer.output?.found;
    await page.getByLabel('Password *', { exact: true }).fill(found && !wrong ? p.data.account.password : 'wrong-pass-1');
  }
  if (mode === 'new_client') {
    await page.getByRole('checkbox', { name: /Privacy Policy/ }).check();
    await page.getByRole('checkbox', { name: /Terms and Conditions/ }).check();
  }
  await page.getByRole('button', { name: 'Next' }).click();
}

/** Pay In Car, with the server's answer the path needs next (SPEC 4 'Booking'). */
async function payInCar(p: PathPage, next: ModelEvent | undefined) {
  const answer = answerOf(next);
  if (answer?.ok && answer.output?.success === false) {
    await p.server.fault({ method: 'POST', path: '/api/v1/booking', kind: 'status', status: 200, message: answer.output.message });
  } else if (answer?.error instanceof AddressError) {
    await p.server.fault({ method: 'POST', path: '/api/v1/booking', kind: 'status', status: 422, message: answer.error.message, field: answer.error.field });
  } else if (answer && !answer.ok) {
    await p.server.fault({ method: 'POST', path: '/api/v1/booking', kind: 'drop' });
  }
  await p.page.getByRole('button', { name: 'Pay In Car' }).click();
}

async function sendQuote(p: PathPage, next: ModelEvent | undefined) {
  const { page } = p;
  const answer = answerOf(next);
  if (answer?.ok && answer.output?.success === false) {
    await p.server.fault({ method: 'POST', path: '/api/v1/send-instant-email', kind: 'status', status: 200, message: 'Not sent' });
  } else if (answer && !answer.ok) {
    await p.server.fault({ method: 'POST', path: '/api/v1/send-instant-email', kind: 'drop' });
  }
  const form = page.getByRole('form', { name: 'Quote Now' });
  if (!(await form.getByLabel('Pickup address').inputValue())) await form.getByLabel('Pickup address').fill(trip().pickup);
  if (!(await form.getByLabel('Drop-off address').inputValue())) await form.getByLabel('Drop-off address').fill(trip().dropoff);
  await form.getByLabel('Date *', { exact: true }).fill(ukDateInDays(4));
  await form.getByLabel('Time *', { exact: true }).fill('15:05');
  await form.getByLabel('Email *', { exact: true }).fill(uniqueEmail('quote'));
  await form.getByLabel('Telephone *', { exact: true }).fill('07700 900123');
  await form.getByLabel('Name').fill('Amelia Hart');
  await form.getByRole('button', { name: 'Send' }).click();
}

/** Signs in to the corporate account from the site bar and comes back to where the visitor was. */
async function signInElsewhere(p: PathPage) {
  const back = p.url.pathname + p.url.search;
  await p.page.getByRole('banner').getByRole('link', { name: 'Corporate Account' }).click();
  const form = p.page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(DEMO_CORPORATE.email);
  await form.getByLabel('Password *', { exact: true }).fill(DEMO_CORPORATE.password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await p.page.waitForURL((u) => u.pathname === '/bookings');
  await p.back(back);
}

/** The whole forgot-password flow for the visitor's account (its own paths: ./forgotPassword.paths.test.ts). */
async function resetPassword(p: PathPage) {
  p.data.account ??= await newAccount(p.server);
  const email = p.data.account.email as string;
  await requestCode(p, email);
  await verifyCode(p, await mailedCode(p, email));
  await setPassword(p, 'secret-2');
}

/** Pays on the card page with the card that is approved, once (SPEC 4 'Card payment'; its own paths: ./cardPayment.paths.test.ts). */
async function payByCard(p: PathPage) {
  if (p.data.paid) return;
  p.data.paid = true;
  await payWith(p, CARDS.approved);
}

const URLS = ['/', '/home', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/checkout', '/stripecheckout',
  '/paymentSuccessView', '/forgot_password', '/no-such-page', '/quoteView?from=contact'];

const wait = async () => {};

// --- What SPEC says the page shows ---------------------------------------------------------------------------------

async function homeSees(p: PathPage, s: S, trail: Trail<S>) {
  const last = answerOf(trail.at(-1)?.event);
  await expectOneOf(p, HOME_PATHS);
  await p.page.getByRole('tab', { name: 'GET A QUOTE' }).waitFor();
  if (s.matches({ home: 'urgent' })) {
    await p.dialog('Urgent Booking!', 'Online bookings must be made at least 2 hours before pickup.');
  } else if (s.matches({ home: 'failed' })) {
    await p.dialog('Error', last?.error?.message.startsWith("Sorry we don't") ? CAPACITY_EXCEEDED_PREFIX : last!.error!.message);
  } else if (last?.error instanceof AddressError) {
    // Decision 23: under the input it is about, not in a dialog.
    const input = p.page.getByRole('combobox', { name: last.error.field === 'dropoff' ? 'Drop-off address' : 'Pickup address' }).first();
    const id = await input.getAttribute('aria-describedby');
    await p.page.locator(`[id="${id}"]`).filter({ hasText: last.error.message }).waitFor();
    await p.noDialog();
  }
}

async function expectOneOf(p: PathPage, paths: string[]) {
  for (let i = 0; i < 100 && !paths.includes(p.url.pathname); i++) await p.page.waitForTimeout(50);
  if (!paths.includes(p.url.pathname)) throw new Error(`expected the address bar at one of ${paths.join(', ')}, it shows ${p.url.pathname}`);
}

browserPaths({
  model,
  heldCalls: { calculatePrice: PRICE_CALLS },
  // A person cannot go to the address the page is already at, use a form that is not shown, or sign in or out
  // twice.
  allows: (s, e) => {
    const ev = e as AnyEventObject;
    if (ev.type === 'url.changed') return (ev.path + ev.search).toLowerCase() !== (pathOf(s) ?? '').toLowerCase();
    // The form on screen is the tab chosen, among the tabs the operator offers.
    if (ev.type === 'home.typeChanged') return ev.bookingType !== s.context.bookingType && availableBookingTypes(s.context.settings).includes(ev.bookingType);
    if (ev.type === 'home.submit') return ev.bookingType === s.context.bookingType;
    if (ev.type === 'home.hourlyChanged') return s.context.bookingType === 'hourly';
    // Hourly hire has no drop-off and no passenger count: those refusals come only to the distance form.
    const refused = ev.type === 'xstate.error.actor.calculatePrice' ? (ev.error as Error).message : '';
    if (refused === SAME_PLACE || refused.startsWith("Sorry we don't")) return s.context.bookingType === 'milleage';
    if (ev.type === 'session.changed') return (ev.session === null) === (s.context.session !== null);
    return true;
  },
  tellsApart: (s) => [s.context.bookingType, s.context.session !== null],
  open: (p, _name, input, { next }) => openVisit(p, input, next),
  acts: {
    ...Object.fromEntries(URLS.map((href) => [`url.changed ${href}`, (p: PathPage) => p.back(href)])),
    'session.changed': signInElsewhere,
    'home.typeChanged hourly': (p) => p.page.getByRole('tab', { name: 'Hourly Rate' }).press('Enter'),
    'home.typeChanged milleage': (p) => p.page.getByRole('tab', { name: 'GET A QUOTE' }).press('Enter'),
    'home.hourlyChanged': async (p) => { await p.page.getByLabel('Duration').selectOption({ label: '8 hours' }); },
    'home.submit milleage': (p, { next }) => submitDistanceForm(p, next),
    'home.submit hourly': (p, { next }) => submitHourlyForm(p, next),
    'error.dismissed': (p) => p.page.getByRole('alertdialog').getByRole('button').first().click(),
    'quotation.select 2 selection': async (p) => {
      const card = p.page.getByRole('article').filter({ has: p.page.getByLabel('Number of vehicles') }).first();
      await card.getByLabel('Number of vehicles').selectOption({ label: '2 x Vehicle Selected' });
      await card.getByRole('button', { name: 'Book Now' }).click();
    },
    'quotation.select 3 lowest': (p) => p.page.getByRole('article', { name: 'Lowest Price' }).getByRole('button', { name: 'Book Now' }).click(),
    'details.changed new_client': (p) => p.page.getByRole('radio', { name: /^New client/ }).check(),
    'details.submit guest_login': (p, { next }) => submitDetails(p, 'guest_login', next),
    'details.submit new_client': (p, { next }) => submitDetails(p, 'new_client', next),
    'details.submit existing_client': (p, { next }) => submitDetails(p, 'existing_client', next),
    'payment.payInCar': (p, { next }) => payInCar(p, next),
    'payment.payByCard': (p) => p.page.getByRole('button', { name: 'Pay By Card' }).click(),
    // The card page tells the wizard these itself as it opens.
    'card.keyLoaded pk_test_51TestCarsKey': wait,
    // Made when the visitor pays.
    'card.intentCreated pi_3TestIntent': payByCard,
    'quote.submit': (p, { next }) => sendQuote(p, next),
    'forgotPassword done (Password has been reset successfully)': resetPassword,
    'cardPayment done': payByCard,
    '1000 ms later': wait,
    '2000 ms later': wait,
  },
  async sees(p, s: S, trail: Trail<S>) {
    const lastEvent = trail.at(-1)?.event;
    const last = answerOf(lastEvent);
    if (s.matches('home')) return homeSees(p, s, trail);
    if (s.matches('quotation')) {
      await p.at('/quotationview');
      await p.heading('Top results');
    } else if (s.matches('details')) {
      await p.at('/personalDetailView');
      await p.heading('Personal details');
      if (s.matches({ details: 'rejected' })) {
        const shown = last?.ok ? (last.output.found ? ACCOUNT_EXISTS : EMAIL_NOT_FOUND) : EMAIL_CHECK_FAILED_PREFIX;
        await p.dialog('Error', shown);
      }
      if (lastEvent?.type === 'xstate.done.actor.forgotPassword') {
        await p.page.getByRole('status').filter({ hasText: PASSWORD_RESET_DONE }).waitFor();
        await p.page.getByRole('radio', { name: /^Existing client/, checked: true }).waitFor();
      }
    } else if (s.matches('payment')) {
      await p.at('/paymentview');
      await p.heading('Payment');
      if (s.matches({ payment: 'failed' })) await p.dialog('Error', last?.ok ? last.output.message : 'We could not reach the booking server');
    } else if (s.matches('checkout')) {
      await p.at('/checkout');
      await p.heading('Review your booking');
    } else if (s.matches('card')) {
      await p.at('/stripecheckout');
      await p.heading('Card payment');
    } else if (s.matches('success')) {
      await p.at('/paymentSuccessView');
      await p.heading('Thank You');
      await p.sees('Your Booking is Confirmed!');
    } else if (s.matches('quote')) {
      // A query typed after /quoteView is not kept: the address bar follows the wizard (SPEC 2).
      await p.at('/quoteView', '');
      await p.heading('Quote Now');
      if (s.matches({ quote: 'notice' })) await p.dialog('Urgent Booking!');
      if (s.matches({ quote: 'sent' })) await p.dialog('Thank you', QUOTE_SENT);
      if (s.matches({ quote: 'failed' })) await p.dialog('Error');
    } else if (s.matches('forgotPassword')) {
      await p.at('/forgot_password');
      await p.heading('Reset your password');
    }
  },
});
