// Issue 44 §3 in Chromium, as the demo booker of Northbridge Consulting (README: charlotte.davies@northbridge-consulting.co.uk):
// the corporate area's Journeys and expenses (filtered by the account's PO number, refused on its field when the days
// are the wrong way round, downloaded as a CSV of the list on screen) and Invoices (last month's invoice, which the
// server's timer issues a few seconds after it starts, downloaded as its PDF), each screen checked with axe, at desktop
// and phone widths; and a passenger of no company account told that invoices are for company accounts.
import { describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { monthLabel, previousMonth } from '../../src/domain/accounts';
import { ukToday } from '../../src/domain/ukTime';
import { bookingForm, registration } from '../machine/fixtures';

const suite = onSharedServer();
const shared = suite.server;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };
/** The demo's journey on account last month (src/server/operator/seedCorporate.ts). */
const DEMO_PO = 'PO-4471';

async function signedIn(email: string, password: string, width = 1280): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true })).newPage();
  await page.goto(`${shared.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
  return page;
}

async function bytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await download.createReadStream()) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Opens a page of the area from its menu (behind the Menu button on a phone). */
async function openFromMenu(page: Page, link: string) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: link, exact: true }).click();
}

/** The booker's company account's invoices as the API answers them (the page's own call, with the page's token). */
async function invoicesOf(page: Page): Promise<{ label: string; month: string }[]> {
  const raw = await page.evaluate(() => localStorage.getItem('passenger_token'));
  const token = JSON.parse(Buffer.from(raw!, 'base64').toString('utf8')) as string;
  const res = await fetch(`${shared.url}/api/v1/account/invoices`, { headers: { ...KEYS, Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { invoices: { label: string; month: string }[] }).invoices;
}

describe("the corporate area's journeys and invoices", () => {
  it('filters the journeys by PO number, downloads them as CSV, and downloads last month\'s invoice as a PDF', async () => {
    const page = await signedIn(DEMO_CORPORATE.email, DEMO_CORPORATE.password);
    try {
      await openFromMenu(page, 'Journeys');
      await page.waitForURL((u) => u.pathname === '/bookings/journeys');
      await page.getByRole('heading', { name: 'Journeys and expenses', level: 1 }).waitFor();
      await page.getByRole('status').filter({ hasText: /^\d+ journeys?, newest first\.$/ }).waitFor();
      const all = await page.getByRole('row').count();
      expect(await violations(page)).toEqual([]);

      const filter = page.getByRole('form', { name: 'Filter journeys' });
      await filter.getByLabel('Field').selectOption('PO number');
      await filter.getByLabel('Value').fill(DEMO_PO.toLowerCase());
      await filter.getByRole('button', { name: 'Show journeys' }).click();
      await page.getByRole('status').filter({ hasText: '1 journey matches this filter, newest first.' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: DEMO_PO });
      await expect.poll(() => page.getByRole('row').count()).toBe(2);
      const cells = await row.getByRole('cell').allTextContents();
      for (const text of ['Completed', 'On account', 'Consulting', DEMO_PO, "King's Cross Station"]) expect(cells.join(' | ')).toContain(text);
      const reference = (await row.getByRole('rowheader').textContent())!.trim();
      expect(reference).toMatch(/^BK-[A-Z0-9]{8}$/);
      expect(all).toBeGreaterThan(2);

      // Days the wrong way round: refused on the last day's field by the form's own rule; the list on screen stays.
      await filter.getByLabel('From').fill('2030-05-31');
      await filter.getByLabel('To').fill('2030-05-01');
      await filter.getByRole('button', { name: 'Show journeys' }).click();
      const to = filter.getByLabel('To');
      await expect.poll(() => to.getAttribute('aria-invalid')).toBe('true');
      const described = await to.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${described}"]`).textContent()).toBe('The first day comes after the last.');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('journeys-to');

      // The CSV is the list on screen: the PO number's journey only.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
      expect(download.suggestedFilename()).toBe('journeys.csv');
      const csv = (await bytes(download)).toString('utf8').trim().split('\r\n');
      expect(csv[0]).toBe('Booking number,Pickup date,Pickup time,Pickup,Destination,Passenger,Vehicle,Payment,Status,Amount (GBP),Invoice,PO number,Cost centre');
      expect(csv.length).toBe(2);
      expect(csv[1]).toContain(reference);
      expect(csv[1]).toContain(`${DEMO_PO},Consulting`);
      await page.getByText('The CSV file has been downloaded.').waitFor();

      // The demo's invoice for last month is issued by the server's timer a few seconds after it starts.
      const month = monthLabel(previousMonth(ukToday()).start);
      await expect.poll(async () => (await invoicesOf(page)).some((i) => i.month === month), { timeout: 60_000 }).toBe(true);
      const { label } = (await invoicesOf(page)).find((i) => i.month === month)!;
      await openFromMenu(page, 'Invoices');
      await page.waitForURL((u) => u.pathname === '/bookings/invoices');
      await page.getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
      const card = page.getByRole('article', { name: `Invoice ${label}` });
      await card.waitFor();
      expect(await card.textContent()).toContain(month);
      expect(await violations(page)).toEqual([]);
      const [pdf] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: `Download ${label} (PDF)` }).click()]);
      expect(pdf.suggestedFilename()).toBe(`invoice-${label}.pdf`);
      expect((await bytes(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
      await page.getByRole('status').filter({ hasText: `${label} has been downloaded.` }).waitFor();

      // The journey's row names its invoice once it is on one.
      await openFromMenu(page, 'Journeys');
      await page.getByRole('status').filter({ hasText: /newest first/ }).waitFor();
      expect(await page.getByRole('row').filter({ hasText: reference }).getByRole('cell').last().textContent()).toBe(label);
    } finally {
      await page.context().close();
    }
  });

  it('shows the pages on a phone, the journeys as cards, and checks them with axe', async () => {
    const page = await signedIn(DEMO_CORPORATE.email, DEMO_CORPORATE.password, 375);
    try {
      await openFromMenu(page, 'Journeys');
      await page.getByRole('status').filter({ hasText: /newest first/ }).waitFor();
      // No sideways scrolling of the page: the table's rows are cards at this width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await violations(page)).toEqual([]);
      await openFromMenu(page, 'Invoices');
      await page.getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
      await page.getByRole('list', { name: /invoices, newest first/ }).or(page.getByRole('heading', { name: 'No invoices yet' })).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await violations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('tells a passenger of no company account that invoices are for company accounts', async () => {
    const email = `no-account-${Date.now()}@example.com`;
    const password = 'Solo-Traveller-1';
    // A passenger with a sign-in, as the site makes one: a booking as a new client.
    const form = { ...bookingForm, pickup_date: ukDateInDays(14) };
    const call = (path: string, body: unknown) => fetch(`${shared.url}/api/v1${path}`, { method: 'POST', headers: KEYS, body: JSON.stringify(body) });
    const prices = (await (await call('/calculate-distance-price', form)).json()) as { price_details: { price: string }[] };
    const made = await call('/booking', {
      selectedVehicleData: prices.price_details.find((p) => Number(p.price) > 0), bookingType: 'milleage', bookingForm: form, payment_method: 'car',
      selected_passenger: 'new_client', registrationData: { ...registration, email, password, privacyAccepted: true, termsAccepted: true },
    });
    expect(made.status).toBe(200);
    const page = await signedIn(email, password);
    try {
      await openFromMenu(page, 'Invoices');
      await page.getByRole('heading', { name: 'Invoices are for company accounts' }).waitFor();
      expect(await violations(page)).toEqual([]);
      // Their own journeys are listed all the same, with no account's fields to filter by.
      await openFromMenu(page, 'Journeys');
      await page.getByRole('status').filter({ hasText: '1 journey, newest first.' }).waitFor();
      expect(await page.getByRole('form', { name: 'Filter journeys' }).getByLabel('Field').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});
