// Issue 43 §4 (decision 60) in Chromium against the real server: an administrator looks up the e-mail address a
// passenger asked about, reads everything held about it, downloads it as a JSON file, and erases it after confirming;
// a dispatcher is not offered the page; and the staff register's DBS record. At 1280 and 375 px, with axe. The person's data is made through the API, as
// the website makes it: a booking (cancelled by the office, so nothing is still to come) and a Contact Us message.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { DEMO_STAFF } from '../../src/server/operator/seed';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN, METRO] = DEMO_STAFF;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

const api = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shared.url}/api/v1${path}`, { method: body ? 'POST' : 'GET', headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any };
};

const RUN = `${Date.now()}`.slice(-7);
const PERSON = { first: 'Philippa', last: `Marchbanks${RUN}`, email: `philippa.marchbanks.${RUN}@example.com`, phone: '07700 900458' };

/** Her booking, made as the website makes it and cancelled by the office; and a Contact Us message. */
async function herData(): Promise<string> {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: ukDateInDays(25), pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const prices = await api('/calculate-distance-price', form);
  const vehicle = prices.body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === 'Albion Executive Cars');
  const booked = await api('/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: PERSON.first, surname: PERSON.last, number: PERSON.phone, email: PERSON.email, additionalInfo: 'A wheelchair in the boot' },
    payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  const reference = booked.body.data.booking.booking_number as string;
  const session = await fetch(`${shared.url}/api/v1/operator/session`, { method: 'POST', headers: KEYS, body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }) });
  const cookie = session.headers.get('set-cookie')!.split(';')[0];
  const cancelled = await api(`/operator/bookings/${reference}/cancel`, { reason: 'The passenger called to cancel', refund: 'no' }, { Cookie: cookie });
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  const message = await api('/contact-us', {
    firstName: PERSON.first, lastName: PERSON.last, email: PERSON.email, telephone: PERSON.phone, queryReason: 'Other', bookingNumber: reference,
    comments: 'Please tell me what you hold about me.',
  });
  expect(message.status).toBe(200);
  return reference;
}

async function signedIn(who: { email: string; password: string }, width: number, path: string): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true })).newPage();
  await page.goto(`${shared.url}${path}`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

describe('privacy requests in the console', () => {
  it('an administrator looks an address up, downloads its file, reads it, and erases it after confirming', async () => {
    const reference = await herData();
    const page = await signedIn(ADMIN, 1280, '/operator/privacy');
    await page.getByRole('heading', { name: 'Privacy requests' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/operator/privacy');
    const address = page.getByLabel('E-mail address', { exact: true });
    // Not an address: said on the field, nothing asked.
    await address.fill('philippa');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => page.getByText('Please enter a valid email address').isVisible()).toBe(true);
    expect(await address.getAttribute('aria-invalid')).toBe('true');

    await address.fill(PERSON.email.toUpperCase());
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('heading', { name: `Held about ${PERSON.email.toUpperCase()}` }).waitFor();
    // The readable page: each place that holds her data, with its rows.
    for (const heading of ['Bookings', 'Passenger on each booking', 'Messages sent', 'Contact Us messages', 'Timeline entries']) {
      expect(await page.getByRole('heading', { name: new RegExp(`^${heading} \\(\\d+\\)$`) }).count(), heading).toBe(1);
    }
    const text = await page.locator('main').innerText();
    for (const words of [reference, `${PERSON.first} ${PERSON.last}`, 'A wheelchair in the boot', 'Please tell me what you hold about me.']) expect(text).toContain(words);
    expect(text).toContain('What an erase keeps, and why');
    // The URL never holds the address; a long address or value never widens the page.
    expect(page.url()).not.toContain('marchbanks');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(await violations(page)).toEqual([]);

    // The JSON file, as the passenger is sent it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the JSON file' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(file.email).toBe(PERSON.email.toUpperCase());
    expect(file.sections.find((s: any) => s.table === 'bookings').rows[0].booking_number).toBe(reference);
    await page.getByText('The JSON file has been downloaded').waitFor();

    // Erase: a window says what goes and what stays; Go back changes nothing; Erase erases.
    await page.getByRole('button', { name: 'Erase...' }).click();
    const dialog = page.getByRole('dialog', { name: `Erase everything held about ${PERSON.email.toUpperCase()}?` });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('This cannot be undone.');
    expect(await violations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Erase...' }).click();
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    await page.getByText("Erased: 1 booking and 1 contact record no longer hold this person's data.").waitFor();
    await page.getByRole('heading', { name: 'What was kept, and why' }).waitFor();

    // Looked up again: nothing is held.
    await address.fill(PERSON.email);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByText(`Nothing is held about ${PERSON.email}.`).waitFor();
    await page.context().close();
  });

  it('fits a phone, and a dispatcher or company member is not offered it', async () => {
    const page = await signedIn(ADMIN, 375, '/operator/privacy');
    await page.getByRole('heading', { name: 'Privacy requests' }).waitFor();
    await page.getByLabel('E-mail address', { exact: true }).fill('nobody.here@example.com');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByText('Nothing is held about nobody.here@example.com.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await violations(page)).toEqual([]);
    await page.context().close();

    const metro = await signedIn(METRO, 1280, '/operator/privacy');
    // Shown the board instead, with no Privacy link.
    await expect.poll(() => new URL(metro.url()).pathname).toBe('/operator');
    expect(await metro.getByRole('link', { name: 'Privacy' }).count()).toBe(0);
    await metro.context().close();
  });

  it("records a member of staff's DBS certificate on the staff register, a wrong number said on its field", async () => {
    const page = await signedIn(ADMIN, 1280, '/operator/data?section=staff');
    const register = page.getByRole('table', { name: 'Staff' });
    await register.waitFor();
    await page.getByRole('button', { name: `DBS certificate of ${METRO.name}` }).click();
    const form = page.getByRole('form', { name: `DBS certificate of ${METRO.name}` });
    await form.getByLabel('DBS certificate number').fill('1234');
    await form.getByLabel('Seen on').fill('2026-10-01');
    await form.getByRole('button', { name: 'Save DBS record' }).click();
    await form.getByText('A DBS certificate number is 12 digits, as printed on the certificate.').waitFor();
    expect(await form.getByLabel('DBS certificate number').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('DBS certificate number').fill('0012 3456 7890');
    await form.getByRole('button', { name: 'Save DBS record' }).click();
    await page.getByText(`${METRO.name}'s DBS certificate is on the register.`).waitFor();
    const row = register.getByRole('row').filter({ hasText: METRO.email });
    await expect.poll(() => row.innerText()).toMatch(/0012 3456 7890\s+seen 2026-10-01/);
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });
});
