// Issue 43 §1 and §2 in Chromium against the real server: a dispatcher takes a booking on the telephone in the console
// (the website's journey fields and prices, a vehicle, a new passenger, a card payment link), the passenger pays it
// through the link in another browser (3-D Secure), the booking is confirmed and the confirmation e-mailed once; a
// passenger found on record, a price set by hand (refused without its reason), a link used again; the Records page
// shows and prints the day's bookings with the office's name and licence. At 1280 and 375 px, with axe.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { outboxMails } from './outbox';
import { DEMO_STAFF } from '../../src/server/operator/seed';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN] = DEMO_STAFF;

async function signedIn(width = 1280, path = '/operator/new-booking'): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 } })).newPage();
  await page.goto(`${shared.url}${path}`);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

async function choose(page: Page, label: string, typed: string) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

/** The journey typed as on the website, priced, and the Albion Saloon chosen. */
async function journeyPriced(page: Page, days: number) {
  await page.getByRole('heading', { name: 'New booking' }).waitFor();
  await choose(page, 'Pickup address', 'Paddington');
  await choose(page, 'Drop-off address', 'Heathrow Airport Terminal 5');
  await page.getByLabel('Pickup date').fill(ukDateInDays(days));
  await page.getByRole('button', { name: 'Get prices' }).click();
  const saloon = page.getByRole('radio', { name: /^Saloon · Albion Executive Cars/ });
  await saloon.check();
  return (await page.locator('.nb-vehicle.on .nb-vehicle-price').textContent())!.replace('£', '');
}

const cardNumber = (page: Page) => page.getByLabel('Credit or debit card number');

/** The demo's corporate passenger found on record (with the account she books for) and used for the booking. */
async function useTheDemoBooker(page: Page) {
  const find = page.getByRole('searchbox', { name: 'Find a passenger on record' });
  // Her own address: a search answers ten, and other browser tests book on the same server.
  await find.fill('charlotte.davies@northbridge');
  await expect.poll(() => find.inputValue()).toBe('charlotte.davies@northbridge');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.getByRole('list', { name: 'Passengers found' }).getByText('books for Northbridge Consulting').waitFor();
  await page.getByRole('button', { name: /^Use Charlotte Davies/ }).click();
}

describe('a booking taken by phone, paid through a card payment link', () => {
  it('is taken in the console, paid by the passenger in another browser with 3-D Secure, and confirmed once', async () => {
    const page = await signedIn(1280, '/operator');
    await page.getByRole('link', { name: 'New booking' }).click();
    const price = await journeyPriced(page, 12);
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('First name').fill('Margaret');
    await page.getByLabel('Surname').fill('Ellis');
    await page.getByLabel('Mobile').fill('07700 900341');
    const email = `margaret.ellis.${Date.now()}@example.com`;
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await page.getByLabel('Send a card payment link').check();
    await page.getByRole('button', { name: 'Take booking' }).click();
    const done = page.getByRole('heading', { name: /^Booking BK-[A-Z0-9]{8} is waiting for payment$/ });
    await done.waitFor();
    const reference = /BK-[A-Z0-9]{8}/.exec((await done.textContent())!)![0];
    const link = await page.getByLabel('Payment link (to read out or send another way)').inputValue();
    expect(link).toMatch(new RegExp(`/pay/${reference}#key=[\\w-]{43}$`));
    expect(await page.getByText(`The card payment link has been sent to ${email}`).count()).toBe(1);
    expect(await violations(page)).toEqual([]);
    // The link reached the passenger by e-mail; the confirmation waits for the payment.
    const toPassenger = () => outboxMails(shared.dataDir).filter((m) => m.headers.to === email);
    await expect.poll(() => toPassenger().map((m) => m.headers.subject)).toEqual([`Pay for your booking ${reference}`]);
    expect(toPassenger()[0].texts.join(' ')).toContain(link.replace(/^https?:\/\/[^/]+/, ''));

    // The passenger, on a phone, in a browser of their own.
    const phone = await (await suite.browser.newContext({ viewport: { width: 375, height: 800 } })).newPage();
    await phone.goto(link);
    await phone.getByRole('heading', { name: 'Pay for your booking' }).waitFor();
    expect(new URL(phone.url()).hash, 'the key leaves the address bar').toBe('');
    expect(await phone.getByText(`£${price}`).count()).toBeGreaterThan(0);
    expect(await violations(phone)).toEqual([]);
    await phone.getByRole('button', { name: `Pay £${price} by card` }).click();
    await cardNumber(phone).waitFor();
    await cardNumber(phone).pressSequentially('4000002760003184');
    await phone.getByLabel('Credit or debit card expiration date').pressSequentially('1234');
    await phone.getByLabel('Credit or debit card security code').pressSequentially('123');
    await phone.getByRole('button', { name: `Pay £${price}` }).click();
    const bank = phone.getByRole('dialog', { name: '3D Secure authentication' });
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await phone.getByRole('heading', { name: `Thank you: booking ${reference} is confirmed` }).waitFor();
    expect(await violations(phone)).toEqual([]);
    // The booking's own page opens from here, with the key the payment gave.
    await phone.getByRole('link', { name: 'See your booking' }).click();
    await phone.getByText(`Booking ${reference}`).first().waitFor();

    // Confirmed once: the usual confirmation (with its manage link) and the office's notice, each sent once.
    await expect.poll(() => toPassenger().map((m) => m.headers.subject).sort()).toEqual([`Booking confirmed: ${reference}`, `Pay for your booking ${reference}`]);
    // The link used again shows the booking paid, and takes nothing more.
    const again = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await again.goto(link);
    await again.getByRole('heading', { name: `Booking ${reference} is paid` }).waitFor();
    expect(await again.getByRole('button', { name: /^Pay/ }).count()).toBe(0);

    // The office sees it confirmed and paid, taken by telephone.
    await page.getByRole('link', { name: `Open booking ${reference}` }).click();
    await page.getByText('Booked by telephone').first().waitFor();
    const record = page.getByRole('region', { name: 'Booking record' });
    await expect.poll(async () => (await record.textContent()) ?? '').toContain(`telephone, taken by ${ADMIN.name} (office)`);
    await expect.poll(async () => (await page.locator('main').textContent()) ?? '').toContain('Confirmed');
  });

  it("refuses a price set by hand without its reason, then books into a passenger's account found on record, paid in the car, at 375 px", async () => {
    const page = await signedIn(375);
    await journeyPriced(page, 13);
    await useTheDemoBooker(page);
    await page.getByText("Booking into Charlotte Davies's account").waitFor();
    expect(await page.getByRole('textbox', { name: 'E-mail', exact: true }).inputValue()).toBe('charlotte.davies@northbridge-consulting.co.uk');
    await page.getByLabel('Set the price by hand').check();
    await page.getByLabel('Price (£, per vehicle)').fill('48');
    await page.getByRole('button', { name: 'Take booking' }).click();
    await page.getByText('Give the reason for the price: it is kept with the booking and audited.').waitFor();
    expect(await page.getByRole('heading', { name: /^Booking BK-/ }).count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('Reason').fill('Account rate agreed with Northbridge');
    await page.getByRole('button', { name: 'Take booking' }).click();
    const done = page.getByRole('heading', { name: /^Booking BK-[A-Z0-9]{8} is confirmed$/ });
    await done.waitFor();
    expect(await page.getByText(/£48\.00/).count()).toBeGreaterThan(0);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Take another booking' }).click();
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
  });

  it("books on the passenger's company account with its PO number, asked on the form before it goes (issue 44)", async () => {
    const page = await signedIn(1280);
    await journeyPriced(page, 15);
    await useTheDemoBooker(page);
    await page.getByLabel('On account: Northbridge Consulting').check();
    await page.getByRole('button', { name: 'Take booking' }).click();
    await page.getByText('Enter the PO number: Northbridge Consulting asks for it on every booking.').waitFor();
    expect(await page.getByRole('heading', { name: /^Booking BK-/ }).count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'PO number' }).fill('PO-PHONE-9');
    await page.getByRole('combobox', { name: 'Cost centre' }).selectOption('Operations');
    await page.getByRole('button', { name: 'Take booking' }).click();
    const done = page.getByRole('heading', { name: /^Booking BK-[A-Z0-9]{8} is confirmed$/ });
    await done.waitFor();
    await page.getByText("It is on the company account, invoiced with the month's journeys.").waitFor();
    const reference = (await done.textContent())!.match(/BK-[A-Z0-9]{8}/)![0];
    // The booking's page in the console says what it is billed to.
    await page.getByRole('link', { name: `Open booking ${reference}` }).click();
    await page.getByText('Northbridge Consulting').first().waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it('says on the field when the pickup has passed, and takes nothing', async () => {
    const page = await signedIn(1280);
    await page.getByRole('heading', { name: 'New booking' }).waitFor();
    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Heathrow Airport Terminal 5');
    await page.getByLabel('Pickup date').fill(ukDateInDays(-1));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.getByText('Pickup date cannot be earlier than today').waitFor();
    expect(await page.getByRole('radio', { name: /Saloon/ }).count()).toBe(0);
  });
});

describe('the booking records', () => {
  it("shows a day's bookings with every field, heads the printed copy with the operator's licence, and hides the console when printed", async () => {
    const page = await signedIn(1280, '/operator/records');
    await page.getByRole('heading', { name: 'Booking records' }).waitFor();
    const day = ukDateInDays(12);
    await page.getByLabel('First day').fill(day);
    await page.getByLabel('Last day').fill(day);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('table').waitFor();
    expect(new URL(page.url()).search).toBe(`?from=${day}&to=${day}`);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('Private hire operator licence 0041287, Transport for London');
    expect(text).toContain('Telephone');
    expect(text).toContain(`${ADMIN.name} (office)`);
    for (const header of ['Booking', 'Booked', 'Passenger', 'Pickup', 'Destination', 'Fare', 'Driver', 'Vehicle', 'Dispatched', 'Company', 'Changes']) {
      expect(await page.getByRole('columnheader', { name: header, exact: true }).count()).toBe(1);
    }
    expect(await violations(page)).toEqual([]);
    // A range the page cannot show is refused on its field.
    await page.getByLabel('Last day').fill(ukDateInDays(11));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('The last day is before the first.').waitFor();

    // The print preview: the console's bar and the form go; the heading, the licence and the table stay, one booking a row.
    await page.getByLabel('Last day').fill(day);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('table').waitFor();
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('navigation', { name: 'Console' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.getByText('Private hire operator licence').isVisible()).toBe(true);
    expect(await page.getByText(/Printed .* by Priya Shah/).isVisible()).toBe(true);
    const rowBreak = await page.locator('.rec-table tbody tr').first().evaluate((tr) => getComputedStyle(tr).breakInside);
    expect(rowBreak).toBe('avoid');
    const pdf = await page.pdf({ preferCSSPageSize: true });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Landscape A4, as the print stylesheet asks: wider than tall.
    const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'))!;
    expect(Number(box[1])).toBeGreaterThan(Number(box[2]));
    await page.emulateMedia({ media: 'screen' });
  });
});
