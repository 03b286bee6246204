// Issue 44 §2 in Chromium against the real server: the demo corporate passenger, a booker of Northbridge Consulting,
// pays on account at the payment step. The account's required PO number is asked for (and its absence refused on the
// field, nothing booked); with it the booking is confirmed without a card, paid "on account", and keeps the values given.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { DEMO_CORPORATE, DEMO_ACCOUNT } from '../../src/server/operator/seedCorporate';

const suite = onSharedServer();
const shared = suite.server;
const KEYS = { 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

async function choose(page: Page, label: string, typed: string) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

/** Signed in as the demo booker, from Book Now to the payment step with a Saloon. */
async function toPayment(width: number): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 } })).newPage();
  await page.goto(`${shared.url}/login`);
  await page.getByLabel('Email').fill(DEMO_CORPORATE.email);
  await page.getByLabel('Password').fill(DEMO_CORPORATE.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((u) => u.pathname === '/bookings');
  await page.goto(`${shared.url}/`);
  await page.getByRole('button', { name: 'Get prices' }).waitFor();
  await choose(page, 'Pickup address', 'Paddington');
  await choose(page, 'Drop-off address', 'Canary Wharf');
  await page.getByLabel('Pickup date').fill(ukDateInDays(9));
  await page.getByRole('button', { name: 'Get prices' }).click();
  await page.waitForURL('**/quotationview');
  await page.getByRole('article', { name: 'Saloon by Metro Cars London' }).getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL('**/personalDetailView');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL('**/paymentview');
  return page;
}

describe('paying on account', () => {
  it('asks for the required PO number on its field, then books on account without a card', async () => {
    const page = await toPayment(1280);
    const section = page.getByRole('form', { name: 'Pay on account' });
    await section.waitFor();
    expect(await section.textContent()).toContain(`invoiced to ${DEMO_ACCOUNT.name}`);
    expect(await page.getByRole('row', { name: /Booking as/ }).textContent()).toContain('Your corporate account');
    const before = page.url();
    await section.getByRole('button', { name: 'Pay on account' }).click();
    await section.getByText('Enter the PO number: your company asks for it on every booking.').waitFor();
    expect(await section.getByLabel('PO number').getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(before);

    expect(await violations(page), 'the payment step with Pay on account').toEqual([]);
    await section.getByLabel('PO number').fill('PO-E2E-7');
    await section.getByLabel('Cost centre').selectOption('Sales');
    await section.getByRole('button', { name: 'Pay on account' }).click();
    await page.waitForURL('**/paymentSuccessView');
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    const main = (await page.locator('main').textContent())!;
    expect(main).toContain('Pay on account');
    const reference = /BK-[A-Z2-9]{8}/.exec(main)![0];

    // The booking keeps the values given, as the booker's journeys list shows them.
    const token = await page.evaluate(() => JSON.parse(atob(localStorage.getItem('passenger_token')!)) as string);
    const res = await fetch(`${shared.url}/api/v1/account/journeys?field=PO%20number&value=PO-E2E-7`, { headers: { ...KEYS, Authorization: `Bearer ${token}` } });
    const { journeys } = await res.json() as { journeys: { booking_number: string; payment_method: string; fields: { label: string; value: string }[] }[] };
    expect(journeys.map((j) => [j.booking_number, j.payment_method, j.fields])).toEqual([
      [reference, 'account', [{ label: 'PO number', value: 'PO-E2E-7' }, { label: 'Cost centre', value: 'Sales' }]],
    ]);
    await page.context().close();
  });

  it('shows Pay on account on a phone, its fields and button in reach', async () => {
    const page = await toPayment(375);
    const section = page.getByRole('form', { name: 'Pay on account' });
    await section.getByLabel('PO number').waitFor();
    const box = await section.getByRole('button', { name: 'Pay on account' }).boundingBox();
    expect(box!.width).toBeGreaterThan(250);
    expect(await violations(page), 'Pay on account at 375 px').toEqual([]);
    await page.context().close();
  });
});
