// Paying by card (SPEC 2, 4 and 8; issue 9; decision 0019) in Chromium against
// the real server and its local test gateway: the card page and its URL, the
// test cards' outcomes, inline errors, 3-D Secure, a reload in the middle,
// accessibility, and SHOWCARD. Every paid booking is written exactly once.
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ROOMY_RATE_LIMITS, onSharedServer, removeDir, startServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { outboxMails } from './outbox';
import { eventCount, machinesReceived, watchMachines } from './machineWatch';

const suite = onSharedServer();
const { server, setting } = suite;

const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => {})));
});

const CARD = {
  paid: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeDSecure: '4000002760003184',
};
const AUTH_FAILED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** A unique e-mail for one visitor, so its bookings can be told apart in `admin bookings`. */
const uniqueEmail = (tag: string) => `card-${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}@example.com`;

async function choose(page: Page, label: string, typed: string) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

/** A fresh visitor at the payment step (a guest, Saloon by Metro Cars London, Paddington to Canary Wharf). */
async function atPayment(opts: { width?: number; email: string; url?: string }): Promise<Page> {
  const context = await suite.browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await watchMachines(page);
  await page.goto(opts.url ?? server.url);
  await choose(page, 'Pickup address', 'Paddington');
  await choose(page, 'Drop-off address', 'Canary Wharf');
  await page.getByLabel('Pickup date').fill(ukDateInDays(4));
  await page.getByRole('button', { name: 'Get prices' }).click();
  await page.waitForURL('**/quotationview');
  await page.getByRole('article', { name: 'Saloon by Metro Cars London' }).getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL('**/personalDetailView');
  await page.getByRole('group', { name: 'How would you like to book?' }).waitFor();
  await page.getByLabel('First Name').fill('Harriet');
  await page.getByLabel('Last Name').fill('Doyle');
  await page.getByLabel('Email').fill(opts.email);
  await page.getByLabel('Phone Number').fill('+44 791 555 010');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL('**/paymentview');
  await page.getByRole('heading', { name: 'Payment' }).waitFor();
  return page;
}

const cardNumber = (page: Page) => page.getByLabel('Credit or debit card number');
const cardExpiry = (page: Page) => page.getByLabel('Credit or debit card expiration date');
const cardCvc = (page: Page) => page.getByLabel('Credit or debit card security code');
/**
 * Types into a card input once it takes input: after a refused Pay the error shows in the same render that ends the
 * busy state, and the inputs are enabled again a moment later (the provider's element updates after React's render).
 * Keys pressed into a disabled input are lost.
 */
async function typeIn(input: Locator, text: string): Promise<void> {
  await expect.poll(() => input.isEditable()).toBe(true);
  await input.pressSequentially(text);
}
const payButton = (page: Page) => page.getByRole('button', { name: /^Pay £/ });
const successHeading = (page: Page) => page.getByRole('heading', { name: 'Payment successful!' });
const failedDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Payment failed' });
const bankDialog = (page: Page) => page.getByRole('dialog', { name: '3D Secure authentication' });

/** From the payment step to the card page, its inputs ready. */
async function toCardPage(page: Page) {
  await page.getByRole('button', { name: 'Pay By Card' }).click();
  await page.waitForURL((u) => u.pathname === '/stripecheckout');
  await cardNumber(page).waitFor();
  await payButton(page).waitFor();
}

async function atCardPage(opts: { width?: number; email: string; url?: string }): Promise<Page> {
  const page = await atPayment(opts);
  await toCardPage(page);
  return page;
}

/** Types into the card inputs as a person does (the stand-in formats as it goes). */
async function typeCard(page: Page, number: string, expiry = '1234', cvc = '123') {
  await typeIn(cardNumber(page), number);
  await typeIn(cardExpiry(page), expiry);
  await typeIn(cardCvc(page), cvc);
}

async function clearInput(input: Locator) {
  await input.click();
  await input.press('ControlOrMeta+a');
  await input.press('Backspace');
}

/** The amount written on the Pay button ("Pay £23.40" -> "23.40"). */
async function payAmount(page: Page): Promise<string> {
  const text = (await payButton(page).textContent())!.trim();
  const m = /^Pay £([\d,]+\.\d{2})$/.exec(text);
  expect(m, `Pay button text: ${text}`).not.toBeNull();
  return m![1].replace(/,/g, '');
}

/** SPEC 3's "encoded": base64 of JSON. */
const decodeParam = (value: string | null) => JSON.parse(Buffer.from(value ?? '', 'base64').toString('utf8')) as unknown;

/** Waits for the confirmation and returns its reference ID, having checked it says 'Pay by Card'. */
async function confirmation(page: Page): Promise<string> {
  await page.waitForURL('**/paymentSuccessView');
  await page.getByRole('heading', { name: 'Thank You' }).waitFor();
  const details = page.getByRole('region', { name: 'Booking details' });
  expect(await details.getByRole('row', { name: /Payment method/ }).getByRole('cell').textContent()).toBe('Pay by Card');
  const reference = (await details.getByRole('row', { name: /Reference ID/ }).getByRole('cell').textContent())!.trim();
  expect(reference).not.toBe('');
  return reference;
}

/** Lines of `npm run admin -- bookings` that contain `text` (a booking number or a visitor's e-mail). */
async function bookingLines(text: string): Promise<string[]> {
  const out = await server.admin('bookings', '--limit', '500');
  return out.split('\n').filter((line) => line.includes(text));
}

/** The visitor's one booking: confirmed, paid, with a charge id. */
async function expectOnePaidBooking(email: string, reference: string) {
  const byEmail = await bookingLines(email);
  expect(byEmail, `bookings for ${email}`).toHaveLength(1);
  const line = byEmail[0];
  expect(line).toContain(reference);
  expect(line).toMatch(/\bconfirmed\b/);
  expect(line).toMatch(/\bpaid\b/);
  expect(line).toMatch(/\bch_\w+/);
  expect(await bookingLines(reference), `bookings numbered ${reference}`).toHaveLength(1);
}


/** Asserts the text is shown just under the input (the inline error of that input). */
async function expectErrorUnder(page: Page, input: Locator, message: string) {
  const error = page.getByText(message, { exact: true });
  await error.waitFor();
  const [i, e] = [await input.boundingBox(), await error.boundingBox()];
  expect(i && e, 'both visible').toBeTruthy();
  expect(e!.y, `"${message}" is below its input`).toBeGreaterThanOrEqual(i!.y + i!.height - 1);
  expect(e!.y - (i!.y + i!.height), `"${message}" is right under its input`).toBeLessThan(40);
  expect(e!.x < i!.x + i!.width && e!.x + e!.width > i!.x, `"${message}" lines up with its input`).toBe(true);
}

/** The text parts of the confirmation e-mail for this booking, once it is in the outbox (up to 20 s). */
async function confirmationMail(reference: string, to: string): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = outboxMails(server.dataDir).find((m) => (m.headers.subject ?? '').includes(`Booking confirmed: ${reference}`)
      && (m.headers.to ?? '').toLowerCase().includes(to) && m.texts.some((t) => t.includes(reference))); // whole, not still being written
    if (mail) return mail.texts;
    if (Date.now() > deadline) throw new Error(`No confirmation e-mail for ${reference} to ${to} in the outbox`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---- The tests ----

describe('paying by card', () => {
  it('pays with 4242 4242 4242 4242 at 1280 px: the encoded URL, the step bar, the success dialog, one paid booking and its e-mail', async () => {
    const email = uniqueEmail('paid');
    const page = await atPayment({ email });
    await toCardPage(page);

    const url = new URL(page.url());
    expect(url.pathname).toBe('/stripecheckout');
    const amount = decodeParam(url.searchParams.get('amount'));
    const key = decodeParam(url.searchParams.get('stripeKey'));
    expect(amount).toBe(await payAmount(page));
    expect(typeof key === 'string' && key.startsWith('pk_test_local_'), `stripeKey decodes to ${JSON.stringify(key)}`).toBe(true);
    expect(await page.getByRole('region', { name: 'Your vehicle' }).textContent()).toContain(`£${amount}`);

    const current = page.getByRole('navigation', { name: 'Booking steps' }).locator('[aria-current="step"]');
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toContain('Payment');
    expect(await page.getByText('Test payments: no real card is charged', { exact: false }).isVisible()).toBe(true);

    await typeCard(page, CARD.paid);
    // When 'Payment successful!' appears and goes, as the page itself sees it.
    await page.evaluate(() => {
      const w = window as unknown as { __success: { shown?: number; gone?: number } };
      w.__success = {};
      const present = () => [...document.querySelectorAll('h2')].some((h) => h.textContent === 'Payment successful!');
      new MutationObserver(() => {
        const now = performance.now();
        if (present()) w.__success.shown ??= now;
        else if (w.__success.shown !== undefined) w.__success.gone ??= now;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await payButton(page).click();
    await successHeading(page).waitFor();
    const reference = await confirmation(page);
    const success = await page.evaluate(() => (window as unknown as { __success: { shown?: number; gone?: number } }).__success);
    expect(success.shown, 'the success dialog was shown').toBeDefined();
    expect(success.gone, 'the success dialog closed').toBeDefined();
    // Timers fire late on a loaded machine, never early: only a lower bound.
    expect(success.gone! - success.shown!, 'the success dialog stays up (1.5 s)').toBeGreaterThanOrEqual(1000);

    await expectOnePaidBooking(email, reference);
    const mail = await confirmationMail(reference, email);
    expect(mail.some((t) => t.includes('Pay by Card')), 'the e-mail says Pay by Card').toBe(true);
  });

  it('shows a declined card in the Payment failed dialog, then pays with a corrected card at 375 px without re-entering anything else', async () => {
    const email = uniqueEmail('declined');
    const page = await atCardPage({ width: 375, email });
    const shownAmount = await payAmount(page);
    await typeCard(page, CARD.declined);
    await payButton(page).click();
    const dialog = failedDialog(page);
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Your card was declined.');
    await dialog.getByRole('button').click();
    await dialog.waitFor({ state: 'detached' });

    expect(new URL(page.url()).pathname).toBe('/stripecheckout');
    expect(await page.getByRole('region', { name: 'Your vehicle' }).isVisible()).toBe(true);
    expect(await page.getByRole('complementary', { name: 'Your journey' }).textContent()).toContain('Paddington');
    expect(await cardExpiry(page).inputValue()).toBe('12 / 34');
    expect(await cardCvc(page).inputValue()).toBe('123');
    expect(await payAmount(page)).toBe(shownAmount);

    await clearInput(cardNumber(page));
    expect(await cardNumber(page).inputValue()).toBe('');
    await typeIn(cardNumber(page), CARD.paid);
    await payButton(page).click();
    await successHeading(page).waitFor();
    const reference = await confirmation(page);
    await expectOnePaidBooking(email, reference);
  });

  it('stops card tries once they are used up, says no payment was taken, and offers Pay in Car and the phone', async () => {
    const own = await startServer({ env: { RATE_LIMITS: `${ROOMY_RATE_LIMITS},cardFailuresPerBooking=1` } });
    try {
      const email = uniqueEmail('used-up');
      const page = await atCardPage({ email, url: own.url });
      await typeCard(page, CARD.declined);
      await payButton(page).click();
      let dialog = failedDialog(page);
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Your card was declined.');
      await dialog.getByRole('button').click();
      await dialog.waitFor({ state: 'detached' });
      await clearInput(cardNumber(page));
      await typeIn(cardNumber(page), CARD.paid);
      await payButton(page).click();
      dialog = failedDialog(page);
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(
        "This booking's card payment was declined too many times. No payment was taken. Please choose Pay in Car, or call us on +44 20 7946 0321 to book.");
      const mine = (await own.admin('bookings')).split('\n').filter((line) => line.includes(email));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toContain('awaiting_payment');
    } finally {
      await own.stop();
      removeDir(own.dataDir);
    }
  });

  it("says 'Your card has insufficient funds.' for 4000 0000 0000 9995", async () => {
    const page = await atCardPage({ email: uniqueEmail('funds') });
    await typeCard(page, CARD.insufficientFunds);
    await payButton(page).click();
    const dialog = failedDialog(page);
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Your card has insufficient funds.');
    expect(new URL(page.url()).pathname).toBe('/stripecheckout');
  });

  it('shows card mistakes under their inputs and sends nothing', async () => {
    const page = await atCardPage({ email: uniqueEmail('inline') });
    const sent: string[] = [];
    page.on('request', (r) => { if (/\/v1\/payment_methods|create-payment-intent/.test(r.url())) sent.push(r.url()); });

    // Pay with an empty card number.
    await typeIn(cardExpiry(page), '1234');
    await typeIn(cardCvc(page), '123');
    await payButton(page).click();
    await expectErrorUnder(page, cardNumber(page), 'Your card number is incomplete.');
    expect(await failedDialog(page).count()).toBe(0);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await bankDialog(page).count()).toBe(0);

    // A number that fails the checksum, at once.
    await typeIn(cardNumber(page), '4242424242424241');
    await expectErrorUnder(page, cardNumber(page), 'Your card number is invalid.');
    expect(await page.getByText('Your card number is incomplete.').count()).toBe(0);

    // An expiry in the past.
    await clearInput(cardExpiry(page));
    await typeIn(cardExpiry(page), '0120');
    await expectErrorUnder(page, cardExpiry(page), "Your card's expiration year is in the past.");

    // A short CVC, once the visitor leaves the field.
    await clearInput(cardCvc(page));
    await typeIn(cardCvc(page), '12');
    expect(await page.getByText("Your card's security code is incomplete.").count()).toBe(0);
    await cardCvc(page).press('Tab');
    await expectErrorUnder(page, cardCvc(page), "Your card's security code is incomplete.");

    // The card machine takes the Pay and, the card refused by its form, is back at the inputs: only then is "no
    // dialog, nothing sent" a fact.
    const submitted = await eventCount(page, 'card.submitted');
    await payButton(page).click();
    await machinesReceived(page, 'card.submitted', submitted);
    await expect.poll(() => payButton(page).isEnabled(), { timeout: 10_000 }).toBe(true);
    await expectErrorUnder(page, cardCvc(page), "Your card's security code is incomplete.");
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/stripecheckout');
    expect(sent, 'nothing was sent to the card provider or the server').toEqual([]);
  });
});

describe('3-D Secure', () => {
  it('pays once the bank check is completed, at 375 px', async () => {
    const email = uniqueEmail('3ds-ok');
    const page = await atCardPage({ width: 375, email });
    const shownAmount = await payAmount(page);
    await typeCard(page, CARD.threeDSecure);
    await payButton(page).click();
    const bank = bankDialog(page);
    await bank.waitFor();
    expect(await bank.textContent(), 'the bank shows the amount').toContain(`£${shownAmount}`);
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await successHeading(page).waitFor();
    const reference = await confirmation(page);
    await expectOnePaidBooking(email, reference);
  });

  it('shows the authentication failure in the Payment failed dialog, at 1280 px', async () => {
    const page = await atCardPage({ email: uniqueEmail('3ds-fail') });
    await typeCard(page, CARD.threeDSecure);
    await payButton(page).click();
    await bankDialog(page).getByRole('button', { name: 'Fail authentication' }).click();
    const dialog = failedDialog(page);
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(AUTH_FAILED);
    expect(await bankDialog(page).count()).toBe(0);
  });
});

describe('a reload in the middle', () => {
  it('asks the bank again after a reload with the 3-D Secure dialog open, and books once', async () => {
    const email = uniqueEmail('reload-3ds');
    const page = await atCardPage({ email });
    await typeCard(page, CARD.threeDSecure);
    await payButton(page).click();
    await bankDialog(page).waitFor();

    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/stripecheckout');
    const bank = bankDialog(page);
    // Whichever comes first: the bank's check again (expected), or a 'Payment failed' dialog.
    await bank.or(failedDialog(page)).first().waitFor({ timeout: 20_000 });
    const failure = (await failedDialog(page).count()) ? await failedDialog(page).textContent() : null;
    expect(failure, `no Payment failed dialog after the reload (the stored intent is resumed), but it says: ${failure}`).toBeNull();
    if (await cardNumber(page).count()) expect(await cardNumber(page).inputValue(), 'the card was not typed again').toBe('');
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await successHeading(page).waitFor();
    const reference = await confirmation(page);
    await expectOnePaidBooking(email, reference);
  });

  it('shows the card form again after a reload before paying, and books once', async () => {
    const email = uniqueEmail('reload-form');
    const page = await atCardPage({ email });
    const shownAmount = await payAmount(page);
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/stripecheckout');
    await cardNumber(page).waitFor();
    await payButton(page).waitFor();
    expect(await payAmount(page)).toBe(shownAmount);
    expect(decodeParam(new URL(page.url()).searchParams.get('amount'))).toBe(shownAmount);
    await typeCard(page, CARD.paid);
    await payButton(page).click();
    await successHeading(page).waitFor();
    const reference = await confirmation(page);
    await expectOnePaidBooking(email, reference);
  });
});

describe.each([375, 1280])('accessibility of the card page at %i px', (width) => {
  it('finds no WCAG 2.2 AA violations: the form, its inline errors, the bank dialog and the failure dialog', async () => {
    const page = await atCardPage({ width, email: uniqueEmail(`axe${width}`) });
    expect(await violations(page), 'card page').toEqual([]);

    await payButton(page).click();
    await page.getByText('Your card number is incomplete.').waitFor();
    await typeIn(cardExpiry(page), '0120');
    await page.getByText("Your card's expiration year is in the past.").waitFor();
    await typeIn(cardCvc(page), '1');
    await cardCvc(page).press('Tab');
    await page.getByText("Your card's security code is incomplete.").waitFor();
    expect(await violations(page), 'card page with inline errors').toEqual([]);

    await typeIn(cardNumber(page), CARD.threeDSecure);
    await clearInput(cardExpiry(page));
    await typeIn(cardExpiry(page), '1234');
    await clearInput(cardCvc(page));
    await typeIn(cardCvc(page), '123');
    await payButton(page).click();
    await bankDialog(page).waitFor();
    expect(await violations(page), '3-D Secure dialog').toEqual([]);

    await bankDialog(page).getByRole('button', { name: 'Fail authentication' }).click();
    await failedDialog(page).waitFor();
    expect(await violations(page), 'Payment failed dialog').toEqual([]);
  });
});

// Issue 44 §4: a wallet on the card step (the test gateway's stand-in for Apple Pay and Google Pay).
describe('paying with a wallet', () => {
  const wallet = (page: Page) => page.getByRole('button', { name: 'Pay with Test wallet' });
  const sheet = (page: Page) => page.getByRole('dialog', { name: 'Test wallet' });

  it('books once with the wallet, even when its button is pressed again while paying, and says Pay by Card', async () => {
    const email = uniqueEmail('wallet');
    const page = await atCardPage({ email });
    await wallet(page).waitFor();
    expect(await page.getByText('or pay by card').isVisible()).toBe(true);
    expect(await violations(page), 'card page with the wallet').toEqual([]);
    const amount = await payAmount(page);
    await wallet(page).click();
    await sheet(page).waitFor();
    expect(await sheet(page).textContent()).toContain(`£${amount}`);
    await sheet(page).getByRole('button', { name: 'Pay' }).click();
    // A second press while the first payment goes on: the machine takes one wallet payment.
    await wallet(page).click({ timeout: 2000 }).catch(() => {});
    if (await sheet(page).isVisible()) await sheet(page).getByRole('button', { name: 'Pay' }).click();
    const reference = await confirmation(page);
    await expectOnePaidBooking(email, reference);
  });

  it('keeps the card form after the wallet is cancelled, and the card still pays, at 375 px', async () => {
    const email = uniqueEmail('wallet-cancel');
    const page = await atCardPage({ email, width: 375 });
    await wallet(page).click();
    await sheet(page).getByRole('button', { name: 'Cancel' }).click();
    await sheet(page).waitFor({ state: 'detached' });
    await typeCard(page, CARD.paid);
    await payButton(page).click();
    const reference = await confirmation(page);
    await expectOnePaidBooking(email, reference);
  });

  it('shows no wallet when the browser offers none', async () => {
    const page = await atPayment({ email: uniqueEmail('no-wallet') });
    await page.evaluate(() => { (window as unknown as { __TEST_GATEWAY_WALLET__: boolean }).__TEST_GATEWAY_WALLET__ = false; });
    await toCardPage(page);
    expect(await wallet(page).count()).toBe(0);
    expect(await page.getByText('or pay by card').isVisible()).toBe(false);
  });
});

describe('SHOWCARD', () => {
  it('off: no Pay By Card, and a typed /stripecheckout lands on /paymentview', async () => {
    await setting('SHOWCARD', 'no');
    const page = await atPayment({ email: uniqueEmail('nocard') });
    await page.getByRole('button', { name: 'Pay In Car' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pay By Card' }).count()).toBe(0);
    await page.goto(`${server.url}/stripecheckout`);
    await page.waitForURL((u) => u.pathname === '/paymentview');
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pay By Card' }).count()).toBe(0);
    expect(await cardNumber(page).count()).toBe(0);
  });
});
