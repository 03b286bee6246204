// A visitor books a one-way trip and pays in the car, through the UI, against
// the real server; the booking is then found in the database, and survives a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { PGlite } from '@electric-sql/pglite';
import { launchBrowser, removeDir, startServer, ukDateInDays, type RunningServer, chooseAddress } from './harness';
import { formatWholePrice, penceToPounds, poundsToPence } from '../../src/domain/money';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDir(server.dataDir);
});



const PICKUP = 'Heathrow Airport Terminal 5, Hounslow TW6 2GA';
const DROPOFF = 'Trafalgar Square, London WC2N 5DN';

describe('step guards on typed URLs', () => {
  it('sends visitors without the earlier steps back, and unknown paths home', async () => {
    const page = await browser.newPage();
    for (const [typed, landing] of [
      ['/quotationview', '/home'], ['/personalDetailView', '/home'], ['/paymentview', '/home'],
      ['/paymentSuccessView', '/home'], ['/no-such-page', '/'],
    ] as const) {
      await page.goto(server.url + typed);
      await page.waitForURL((u) => u.pathname === landing);
      await expect.poll(() => page.getByRole('button', { name: 'Get prices' }).isVisible()).toBe(true);
    }
    await page.close();
  });
});

describe('booking a one-way trip and paying in the car', () => {
  let reference = '';
  let shownTotal = '';

  it('takes a visitor from the quote form to the confirmation', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await expect.poll(() => page.getByRole('tab', { name: 'GET A QUOTE' }).isVisible()).toBe(true);

    await chooseAddress(page, 'Pickup address', 'terminal 5', PICKUP);
    await chooseAddress(page, 'Drop-off address', 'TRAFALGAR', DROPOFF);
    const date = ukDateInDays(7);
    await page.getByLabel('Pickup date').fill(date);
    await page.getByLabel('Pickup time hour').selectOption({ label: '15' });
    await page.getByLabel('Pickup time minute').selectOption('05');
    await page.getByLabel('Passengers').selectOption('2');
    await page.getByLabel('Luggage', { exact: true }).selectOption('1');
    await page.getByRole('button', { name: 'Get prices' }).click();

    await page.waitForURL('**/quotationview');
    const card = page.getByRole('article', { name: 'Saloon by Metro Cars London' });
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await card.textContent()).toContain('Up to 4 passengers');
    expect(await card.textContent()).toContain('2 large suitcases');
    expect(await card.textContent()).toContain('2 medium suitcases');
    // Issue 27: what a fare includes, from the settings, before a vehicle is chosen.
    await page.getByText('Free waiting: 45 minutes after landing at airports, 15 minutes elsewhere.').waitFor();

    // The price on the card is the server's price for this vehicle, rounded, times the quantity.
    const stored = await page.evaluate(() => localStorage.getItem('PriceDetails'));
    const prices = JSON.parse(Buffer.from(stored!, 'base64').toString('utf8')) as { vehicle_type: string; company_name: string; price: string }[];
    const unit = prices.find((p) => p.vehicle_type === 'Saloon' && p.company_name === 'Metro Cars London')!.price;
    expect(await card.locator('.vehicle-price').textContent()).toBe(formatWholePrice(unit));
    await card.getByLabel('Number of vehicles').selectOption({ label: '2 x Vehicle Selected' });
    shownTotal = formatWholePrice(penceToPounds(poundsToPence(unit) * 2));
    expect(await card.locator('.vehicle-price').textContent()).toBe(shownTotal);
    await card.getByRole('button', { name: 'Book Now' }).click();

    await page.waitForURL('**/personalDetailView');
    await page.getByRole('button', { name: 'Next' }).click();
    const alert = page.getByRole('alertdialog');
    expect(await alert.textContent()).toContain('Enter Passenger Email to receive booking details');
    await alert.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => page.getByText('First Name is required').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Last Name is required').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Phone Number is required').isVisible()).toBe(true);

    await page.getByLabel('First Name').fill('Amelia');
    await page.getByLabel('Last Name').fill('Hart');
    await page.getByLabel('Email').fill('amelia.hart@');
    await page.getByLabel('Phone Number').fill('0770090012');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText('Please enter a valid email address').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Please enter a valid phone number (e.g., +xxx xxx xxx xxx)').isVisible()).toBe(true);
    await page.getByLabel('Email').fill('amelia.hart@example.co.uk');
    await page.getByLabel('Phone Number').fill('+44 770 090 012');
    await page.getByLabel('Additional information (optional)').fill('Two suit carriers');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL('**/paymentview');
    const who = page.getByRole('region', { name: 'Personal details' });
    expect(await who.textContent()).toContain('amelia.hart@example.co.uk');
    await page.getByRole('button', { name: 'Pay In Car' }).click();

    await page.waitForURL('**/paymentSuccessView');
    await expect.poll(() => page.getByRole('heading', { name: 'Thank You' }).isVisible()).toBe(true);
    const body = (await page.locator('main').textContent())!;
    expect(body).toContain('Your Booking is Confirmed!');
    expect(body).toContain('You have received an email for all your booking details');
    expect(body).toContain(PICKUP);
    expect(body).toContain(DROPOFF);
    const [y, m, d] = date.split('-');
    expect(body).toContain(`${d}-${m}-${y}`);
    expect(body).toContain('3:05 PM');
    expect(body).toContain('Pay in Car');
    expect(body).toContain(shownTotal);
    reference = /BK-[A-Z2-9]{8}/.exec(body)![0];

    // SPEC 2: the confirmation clears browser storage except appSettings.
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['appSettings']);
    // A reload keeps showing the confirmation.
    await page.reload();
    await expect.poll(() => page.getByText(reference).isVisible()).toBe(true);
    await page.close();
  });

  it('stored the booking, priced by the server, and keeps it across a restart', async () => {
    expect(reference).not.toBe('');
    await server.stop();
    const readBooking = async () => {
      const db = await PGlite.create(path.join(server.dataDir, 'pglite'));
      try {
        const { rows } = await db.query<Record<string, unknown>>(
          `SELECT b.total_booking_amount_pence, b.unit_price_pence, b.vehicle_qty, b.payment_method, p.passenger_email
             FROM bookings b JOIN booking_passengers p ON p.booking_id = b.id WHERE b.booking_number = $1`, [reference]);
        return rows;
      } finally {
        await db.close();
      }
    };
    const [row] = await readBooking();
    expect(row).toMatchObject({ vehicle_qty: 2, payment_method: 'car', passenger_email: 'amelia.hart@example.co.uk' });
    expect(row.total_booking_amount_pence).toBe((row.unit_price_pence as number) * 2);
    expect(formatWholePrice(penceToPounds(row.total_booking_amount_pence as number))).toBe(shownTotal);

    // The confirmation e-mail went to the outbox (no SMTP server configured).
    const outbox = path.join(server.dataDir, 'outbox');
    const mails = readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8'));
    const confirmation = mails.find((m) => m.includes(`Subject: Booking confirmed: ${reference}`));
    expect(confirmation).toBeDefined();
    expect(confirmation).toContain('To: amelia.hart@example.co.uk');

    server = await startServer({ dataDir: server.dataDir });
    expect(server.output()).not.toContain('Seeded the demo operator');
    await server.stop();
    expect(await readBooking()).toHaveLength(1);
  });
});
